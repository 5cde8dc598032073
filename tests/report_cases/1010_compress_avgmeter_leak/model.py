import math

import torch
import torch.nn as nn


class EntropyBottleneck(nn.Module):
    """Factorized prior with learnable quantiles (trained by the auxiliary loss)."""

    def __init__(self, channels):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(1, channels, 1, 1))
        self.quantiles = nn.Parameter(torch.tensor([-10.0, 0.0, 10.0]).repeat(channels, 1, 1))
        self.target = torch.tensor([-math.log(2 / 1e-9 - 1), 0.0, math.log(2 / 1e-9 - 1)])

    def _likelihood(self, y):
        s = self.scale.abs() + 1e-3
        upper = torch.sigmoid((y + 0.5) / s)
        lower = torch.sigmoid((y - 0.5) / s)
        return (upper - lower).clamp_min(1e-9)

    def forward(self, y):
        if self.training:
            y_hat = y + torch.empty_like(y).uniform_(-0.5, 0.5)
        else:
            y_hat = torch.round(y)
        return y_hat, self._likelihood(y_hat)

    def loss(self):
        logits = self.quantiles.squeeze(1) / 4.0
        return torch.abs(logits - self.target).sum()


class FactorizedPrior(nn.Module):
    def __init__(self, N=8, M=12):
        super().__init__()
        self.g_a = nn.Sequential(nn.Conv2d(3, N, 5, 2, 2), nn.GELU(), nn.Conv2d(N, M, 5, 2, 2))
        self.g_s = nn.Sequential(nn.ConvTranspose2d(M, N, 5, 2, 2, 1), nn.GELU(), nn.ConvTranspose2d(N, 3, 5, 2, 2, 1))
        self.entropy_bottleneck = EntropyBottleneck(M)

    def forward(self, x):
        y = self.g_a(x)
        y_hat, y_likelihoods = self.entropy_bottleneck(y)
        x_hat = self.g_s(y_hat)
        return {"x_hat": x_hat, "likelihoods": {"y": y_likelihoods}}

    def aux_loss(self):
        return sum(m.loss() for m in self.modules() if isinstance(m, EntropyBottleneck))
