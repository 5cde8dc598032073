import torch
import torch.nn as nn
import torch.nn.functional as F


class VectorQuantizer(nn.Module):
    def __init__(self, embed_dim, n_embed, beta=0.25):
        super().__init__()
        self.embed_dim = embed_dim
        self.beta = beta
        self.embedding = nn.Embedding(n_embed, embed_dim)
        self.embedding.weight.data.uniform_(-1.0 / n_embed, 1.0 / n_embed)

    def forward(self, z):
        z_norm = F.normalize(z, dim=-1)
        codebook = F.normalize(self.embedding.weight, dim=-1)
        d = -z_norm @ codebook.t()
        encoding_indices = d.argmin(dim=-1)
        z_qnorm = codebook[encoding_indices]
        loss = self.beta * torch.mean((z_qnorm.detach() - z_norm) ** 2) + torch.mean((z_qnorm - z_norm.detach()) ** 2)
        z_qnorm = z_norm + (z_qnorm - z_norm).detach()
        return z_qnorm, loss, encoding_indices

