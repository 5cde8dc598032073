"""Actor-critic policy that buffers (log_prob, value) pairs of the episode."""
from collections import namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F

SavedAction = namedtuple("SavedAction", ["log_prob", "value"])


class Policy(nn.Module):
    """implements both actor and critic in one model"""

    def __init__(self, obs_dim=4, n_actions=2):
        super().__init__()
        self.affine1 = nn.Linear(obs_dim, 64)
        self.action_head = nn.Linear(64, n_actions)
        self.value_head = nn.Linear(64, 1)
        # action & reward buffer
        self.saved_actions = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.affine1(x))
        return F.softmax(self.action_head(x), dim=-1), self.value_head(x)
