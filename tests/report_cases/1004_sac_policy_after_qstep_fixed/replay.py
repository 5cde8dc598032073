from collections import deque
import random

import torch


class ReplayBuffer:
    def __init__(self, capacity=10_000):
        self.storage = deque(maxlen=capacity)

    def add(self, obs, action, reward, next_obs, done):
        self.storage.append((obs, action, reward, next_obs, done))

    def __len__(self):
        return len(self.storage)

    def random_batch(self, batch_size):
        batch = random.sample(self.storage, batch_size)
        obs, act, rew, nxt, done = (torch.stack(col) for col in zip(*batch))
        return dict(observations=obs, actions=act, rewards=rew, next_observations=nxt, terminals=done)


def fill_random(buffer, obs_dim, action_dim, n):
    for _ in range(n):
        o = torch.randn(obs_dim)
        a = torch.rand(action_dim) * 2 - 1
        r = -(a ** 2).sum(dim=0, keepdim=True) + 0.1 * o[:1]
        buffer.add(o, a, r, o + 0.1 * torch.randn(obs_dim), torch.zeros(1))
