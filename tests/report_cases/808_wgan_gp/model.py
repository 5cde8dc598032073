"""Generator and critic for a 2-D WGAN-GP."""
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, z_dim=4, out_dim=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, out_dim))

    def forward(self, z):
        return self.net(z)


class Critic(nn.Module):
    def __init__(self, in_dim=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)
