import torch
import torch.nn as nn
import torch.nn.functional as F


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64, max_action=1.0):
        super().__init__()
        self.max_action = max_action
        self.fc1 = nn.Linear(obs_dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.action_out = nn.Linear(hidden, act_dim)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.max_action * torch.tanh(self.action_out(x))


class Critic(nn.Module):
    """Centralised critic: sees every agent's observation and action."""

    def __init__(self, obs_dims, act_dims, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(sum(obs_dims) + sum(act_dims), hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.q_out = nn.Linear(hidden, 1)

    def forward(self, state, action):
        state = torch.cat(state, dim=1)
        action = torch.cat(action, dim=1)
        x = torch.cat([state, action], dim=1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.q_out(x)
