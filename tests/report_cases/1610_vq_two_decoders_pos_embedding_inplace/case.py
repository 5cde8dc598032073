"""ViT-VQ autoencoder with two decoders sharing one quantized latent:
one reconstructs the image, the other predicts its edge map."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IMG, PATCH, DIM, CODES = 16, 4, 32, 64
N_TOKENS = (IMG // PATCH) ** 2


class ViTEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.to_tokens = nn.Conv2d(1, DIM, PATCH, stride=PATCH)
        self.en_pos_embedding = nn.Parameter(0.02 * torch.randn(1, N_TOKENS, DIM))
        layer = nn.TransformerEncoderLayer(DIM, nhead=4, dim_feedforward=64, batch_first=True,
                                           norm_first=True)
        self.transformer = nn.TransformerEncoder(layer, num_layers=1)

    def forward(self, img):
        x = self.to_tokens(img).flatten(2).transpose(1, 2)
        x = x + self.en_pos_embedding
        return self.transformer(x)


class ViTDecoder(nn.Module):
    def __init__(self, out_channels=1):
        super().__init__()
        self.de_pos_embedding = nn.Parameter(0.02 * torch.randn(1, N_TOKENS, DIM))
        layer = nn.TransformerEncoderLayer(DIM, nhead=4, dim_feedforward=64, batch_first=True,
                                           norm_first=True)
        self.transformer = nn.TransformerEncoder(layer, num_layers=1)
        self.to_pixel = nn.ConvTranspose2d(DIM, out_channels, PATCH, stride=PATCH)

    def forward(self, token):
        token += self.de_pos_embedding
        x = self.transformer(token)
        side = IMG // PATCH
        x = x.transpose(1, 2).reshape(x.size(0), DIM, side, side)
        return self.to_pixel(x)


class VectorQuantizer(nn.Module):
    def __init__(self, n_codes=CODES, dim=DIM, beta=0.25):
        super().__init__()
        self.codebook = nn.Embedding(n_codes, dim)
        self.codebook.weight.data.uniform_(-1.0 / n_codes, 1.0 / n_codes)
        self.beta = beta

    def forward(self, z):
        dist = (z.pow(2).sum(-1, keepdim=True)
                - 2 * z @ self.codebook.weight.t()
                + self.codebook.weight.pow(2).sum(-1))
        idx = dist.argmin(-1)
        z_q = self.codebook(idx)
        loss = F.mse_loss(z_q, z.detach()) + self.beta * F.mse_loss(z, z_q.detach())
        quant = z + (z_q - z).detach()  # straight-through estimator
        return quant, loss, idx


def sobel_edges(img):
    kx = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]).view(1, 1, 3, 3)
    gx = F.conv2d(img, kx, padding=1)
    gy = F.conv2d(img, kx.transpose(2, 3), padding=1)
    return (gx.pow(2) + gy.pow(2)).sqrt()


def main():
    encoder, quantizer = ViTEncoder(), VectorQuantizer()
    image_decoder, edge_decoder = ViTDecoder(), ViTDecoder()
    params = [p for m in (encoder, quantizer, image_decoder, edge_decoder) for p in m.parameters()]
    optimizer = torch.optim.AdamW(params, lr=3e-4)

    data = torch.rand(64, 1, IMG, IMG)
    for step in range(10):
        img = data[torch.randint(len(data), (16,))]
        quant, vq_loss, _ = quantizer(encoder(img))
        rec = image_decoder(quant)
        edges = edge_decoder(quant)
        loss = F.l1_loss(rec, img) + F.l1_loss(edges, sobel_edges(img)) + vq_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 5 == 0:
            print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
