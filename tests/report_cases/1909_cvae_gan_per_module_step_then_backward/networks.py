"""Small CVAE-GAN building blocks: encoder, generator, discriminator, classifier."""
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, x_dim=32, n_cls=4, z_dim=8):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(x_dim + n_cls, 64), nn.ReLU())
        self.mu = nn.Linear(64, z_dim)
        self.logvar = nn.Linear(64, z_dim)

    def forward(self, x, c):
        h = self.body(torch.cat([x, c], 1))
        return self.mu(h), self.logvar(h)


class Generator(nn.Module):
    def __init__(self, z_dim=8, n_cls=4, x_dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim + n_cls, 64), nn.ReLU(), nn.Linear(64, x_dim), nn.Tanh())

    def forward(self, z, c):
        return self.net(torch.cat([z, c], 1))


class FeatureNet(nn.Module):
    """Shared shape of D and C: returns (output, intermediate features)."""

    def __init__(self, x_dim=32, out_dim=1):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(x_dim, 64), nn.LeakyReLU(0.2))
        self.head = nn.Linear(64, out_dim)

    def forward(self, x):
        f = self.features(x)
        return self.head(f), f
