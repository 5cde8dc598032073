import math

import torch
import torch.nn as nn


class AffineCoupling(nn.Module):
    """RealNVP affine coupling: the second half is scaled and shifted given the first."""

    def __init__(self, dim, hidden, clamp=2.0):
        super().__init__()
        self.split = dim // 2
        self.clamp = clamp
        self.subnet = nn.Sequential(
            nn.Linear(self.split, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 2 * (dim - self.split)),
        )

    def forward(self, x):
        x1, x2 = x[:, :self.split], x[:, self.split:]
        s, t = self.subnet(x1).chunk(2, dim=1)
        s = self.clamp * torch.tanh(s / self.clamp)
        x2 *= torch.exp(s)
        x2 += t
        return x, s.sum(dim=1)


class Permute(nn.Module):
    def __init__(self, dim, seed):
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.register_buffer("perm", torch.randperm(dim, generator=g))

    def forward(self, x):
        return x[:, self.perm], torch.zeros(x.size(0))


class SequenceFlow(nn.Module):
    def __init__(self, dim, hidden, n_blocks):
        super().__init__()
        mods = []
        for i in range(n_blocks):
            mods += [AffineCoupling(dim, hidden), Permute(dim, seed=i)]
        self.flows = nn.ModuleList(mods)

    def forward(self, x):
        log_det = torch.zeros(x.size(0))
        for f in self.flows:
            x, ld = f(x)
            log_det = log_det + ld
        return x, log_det


def standard_normal_logprob(z):
    return -0.5 * (z ** 2).sum(dim=1) - 0.5 * z.size(1) * math.log(2 * math.pi)
