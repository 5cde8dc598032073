"""Glow-style building blocks for vector data: ActNorm, invertible linear
mixing and an affine coupling layer."""
import math
import torch
import torch.nn as nn


class ActNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, dim))
        self.log_scale = nn.Parameter(torch.zeros(1, dim))
        self.register_buffer("initialized", torch.tensor(0, dtype=torch.uint8))

    def forward(self, x):
        if self.initialized.item() == 0:
            with torch.no_grad():
                self.loc.copy_(-x.mean(dim=0, keepdim=True))
                self.log_scale.copy_(-torch.log(x.std(dim=0, keepdim=True) + 1e-6))
                self.initialized.fill_(1)
        y = (x + self.loc) * torch.exp(self.log_scale)
        logdet = self.log_scale.sum().expand(x.size(0))
        return y, logdet


class InvertibleLinear(nn.Module):
    def __init__(self, dim):
        super().__init__()
        w, _ = torch.linalg.qr(torch.randn(dim, dim))
        self.weight = nn.Parameter(w)

    def forward(self, x):
        logdet = torch.slogdet(self.weight)[1].expand(x.size(0))
        return x @ self.weight, logdet


class AffineCoupling(nn.Module):
    def __init__(self, dim, hidden=64):
        super().__init__()
        self.half = dim // 2
        self.net = nn.Sequential(
            nn.Linear(self.half, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 2 * (dim - self.half)),
        )
        nn.init.zeros_(self.net[-1].weight)
        nn.init.zeros_(self.net[-1].bias)

    def forward(self, x):
        h = self.net(x[:, : self.half])
        log_s, t = h.chunk(2, dim=1)
        log_s = torch.tanh(log_s)
        x[:, self.half :] = x[:, self.half :] * torch.exp(log_s) + t
        return x, log_s.sum(dim=1)


class Glow(nn.Module):
    def __init__(self, dim, n_steps=4, coupling_cls=AffineCoupling):
        super().__init__()
        layers = []
        for _ in range(n_steps):
            layers += [ActNorm(dim), InvertibleLinear(dim), coupling_cls(dim)]
        self.layers = nn.ModuleList(layers)
        self.dim = dim

    def forward(self, x):
        logdet = torch.zeros(x.size(0))
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        return x, logdet

    def log_prob(self, x):
        z, logdet = self(x)
        log_pz = -0.5 * (z ** 2).sum(dim=1) - 0.5 * self.dim * math.log(2 * math.pi)
        return log_pz + logdet


def ring_data(n, dim=4):
    angle = torch.rand(n) * 2 * math.pi
    radius = 2.0 + 0.1 * torch.randn(n)
    pts = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    noise = 0.3 * torch.randn(n, dim - 2)
    return torch.cat([pts, noise], dim=1)
