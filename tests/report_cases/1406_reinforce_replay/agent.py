import random
from collections import namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

Transition = namedtuple("Transition", ["state", "action", "ret"])


class Policy(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2, hidden=32):
        super().__init__()
        self.affine1 = nn.Linear(obs_dim, hidden)
        self.dropout = nn.Dropout(p=0.1)
        self.affine2 = nn.Linear(hidden, n_actions)

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        return F.softmax(self.affine2(x), dim=-1)


class Agent:
    """REINFORCE that keeps past experience and re-samples it for extra updates."""

    def __init__(self, gamma=0.99, lr=1e-2, batch_size=64, seed=0):
        self.policy = Policy()
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.gamma = gamma
        self.batch_size = batch_size
        self.memory = []
        self.rewards = []
        self.episode = []
        self.rng = random.Random(seed)

    def select_action(self, state):
        probs = self.policy(state.unsqueeze(0))
        m = Categorical(probs)
        action = m.sample()
        self.episode.append((state, action.item()))
        return action.item()

    def end_episode(self):
        R, returns = 0.0, []
        for r in reversed(self.rewards):
            R = r + self.gamma * R
            returns.insert(0, R)
        returns = torch.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + 1e-6)
        for (state, action), ret in zip(self.episode, returns):
            self.memory.append(Transition(state, action, ret))
        self.episode.clear()
        self.rewards.clear()

    def sample(self):
        k = min(len(self.memory), self.batch_size)
        return self.rng.sample(self.memory, k)

    def log_probs(self, batch):
        states = torch.stack([t.state for t in batch])
        actions = torch.tensor([t.action for t in batch])
        return Categorical(self.policy(states)).log_prob(actions)
