import math

import torch
import torch.nn as nn


def orthogonal_random_matrix(rows, cols, generator=None):
    blocks = []
    for _ in range(math.ceil(cols / rows)):
        q, _ = torch.linalg.qr(torch.randn(rows, rows, generator=generator))
        blocks.append(q)
    return torch.cat(blocks, dim=1)[:, :cols]


class Favor(nn.Module):
    """Positive random features for softmax-kernel approximation (Performer)."""

    def __init__(self, query_dimensions, n_dims=None):
        super().__init__()
        self.query_dimensions = query_dimensions
        self.n_dims = n_dims or query_dimensions
        self.register_buffer("omega", torch.zeros(query_dimensions, self.n_dims))

    def new_feature_map(self, device):
        omega = orthogonal_random_matrix(self.query_dimensions, self.n_dims).to(device)
        omega = omega * math.sqrt(self.query_dimensions)
        self.omega.copy_(omega)

    def forward(self, x):
        x = x * (self.query_dimensions ** -0.25)
        u = x @ self.omega
        norm_x_sq = 0.5 * (x * x).sum(-1, keepdim=True)
        return torch.exp(u - norm_x_sq) / math.sqrt(self.n_dims)

    @classmethod
    def factory(cls, n_dims=None):
        return lambda query_dimensions: cls(query_dimensions, n_dims)
