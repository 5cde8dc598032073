"""Policy network that returns a torch.distributions object."""
import torch
import torch.nn as nn
from torch.distributions import Bernoulli


class BinaryPolicy(nn.Module):
    """Bernoulli policy over 'press / don't press' for each of n_buttons."""

    def __init__(self, obs_dim=4, n_buttons=3, hidden=16):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.head = nn.Linear(hidden, n_buttons)

    def forward(self, obs):
        probs = torch.sigmoid(self.head(self.body(obs)))
        return Bernoulli(probs=probs.clamp(1e-4, 1 - 1e-4))


def build_policy(cfg):
    return BinaryPolicy(cfg["obs_dim"], cfg["n_buttons"], cfg["hidden"])
