import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, act_dim), nn.Tanh())

    def forward(self, obs):
        return self.net(obs)


class QValueEnsemble(nn.Module):
    """Twin critics evaluated together: returns (n_q, batch, 1)."""

    def __init__(self, obs_dim, act_dim, n_q=2, hidden=64):
        super().__init__()
        self.critics = nn.ModuleList([
            nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(),
                          nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))
            for _ in range(n_q)])

    def forward(self, obs, act):
        sa = torch.cat([obs, act], dim=-1)
        return torch.stack([q(sa) for q in self.critics])
