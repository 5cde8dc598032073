"""VQ-VAE (zalandoresearch/pytorch-vq-vae notebook layout): the VectorQuantizer
picks codes with argmin, uses detach() for the codebook / commitment losses and
the straight-through estimator `inputs + (quantized - inputs).detach()`."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class VectorQuantizer(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, commitment_cost):
        super().__init__()
        self._embedding_dim, self._num_embeddings = embedding_dim, num_embeddings
        self._embedding = nn.Embedding(num_embeddings, embedding_dim)
        self._embedding.weight.data.uniform_(-1 / num_embeddings, 1 / num_embeddings)
        self._commitment_cost = commitment_cost

    def forward(self, inputs):
        inputs = inputs.permute(0, 2, 3, 1).contiguous()
        input_shape = inputs.shape
        flat_input = inputs.view(-1, self._embedding_dim)
        distances = (torch.sum(flat_input ** 2, dim=1, keepdim=True)
                     + torch.sum(self._embedding.weight ** 2, dim=1)
                     - 2 * torch.matmul(flat_input, self._embedding.weight.t()))
        encoding_indices = torch.argmin(distances, dim=1).unsqueeze(1)
        encodings = torch.zeros(encoding_indices.shape[0], self._num_embeddings)
        encodings.scatter_(1, encoding_indices, 1)
        quantized = torch.matmul(encodings, self._embedding.weight).view(input_shape)

        e_latent_loss = F.mse_loss(quantized.detach(), inputs)
        q_latent_loss = F.mse_loss(quantized, inputs.detach())
        loss = q_latent_loss + self._commitment_cost * e_latent_loss

        quantized = inputs + (quantized - inputs).detach()
        avg_probs = torch.mean(encodings, dim=0)
        perplexity = torch.exp(-torch.sum(avg_probs * torch.log(avg_probs + 1e-10)))
        return loss, quantized.permute(0, 3, 1, 2).contiguous(), perplexity, encodings


class Model(nn.Module):
    def __init__(self, num_hiddens=16, embedding_dim=4, num_embeddings=32, commitment_cost=0.25):
        super().__init__()
        self._encoder = nn.Sequential(nn.Conv2d(3, num_hiddens, 4, 2, 1), nn.ReLU(),
                                      nn.Conv2d(num_hiddens, num_hiddens, 3, 1, 1))
        self._pre_vq_conv = nn.Conv2d(num_hiddens, embedding_dim, 1)
        self._vq_vae = VectorQuantizer(num_embeddings, embedding_dim, commitment_cost)
        self._decoder = nn.Sequential(nn.Conv2d(embedding_dim, num_hiddens, 3, 1, 1), nn.ReLU(),
                                      nn.ConvTranspose2d(num_hiddens, 3, 4, 2, 1))

    def forward(self, x):
        z = self._pre_vq_conv(self._encoder(x))
        loss, quantized, perplexity, _ = self._vq_vae(z)
        return loss, self._decoder(quantized), perplexity


if __name__ == "__main__":
    torch.manual_seed(0)
    training_data = torch.rand(32, 3, 16, 16) - 0.5
    data_variance = training_data.var().item()
    model = Model()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, amsgrad=False)
    model.train()
    train_res_recon_error, train_res_perplexity = [], []
    for i in range(6):
        data = training_data[torch.randint(0, 32, (8,))]
        optimizer.zero_grad()
        vq_loss, data_recon, perplexity = model(data)
        recon_error = F.mse_loss(data_recon, data) / data_variance
        loss = recon_error + vq_loss
        loss.backward()
        optimizer.step()
        train_res_recon_error.append(recon_error.item())
        train_res_perplexity.append(perplexity.item())
        print(f"{i + 1} iterations: recon_error {np.mean(train_res_recon_error[-2:]):.3f} "
              f"perplexity {np.mean(train_res_perplexity[-2:]):.3f}")
