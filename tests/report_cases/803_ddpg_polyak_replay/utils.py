"""Replay buffer and target-network helpers."""
import random

import torch


class ReplayBuffer:
    def __init__(self, capacity):
        self.capacity = capacity
        self.storage = []

    def add(self, obs, act, rew, next_obs, done):
        item = tuple(torch.as_tensor(v, dtype=torch.float32).detach()
                     for v in (obs, act, rew, next_obs, done))
        if len(self.storage) >= self.capacity:
            self.storage.pop(0)
        self.storage.append(item)

    def sample(self, batch_size):
        batch = random.sample(self.storage, batch_size)
        return [torch.stack(col) for col in zip(*batch)]

    def __len__(self):
        return len(self.storage)


def polyak_update(params, target_params, tau):
    with torch.no_grad():
        for param, target_param in zip(params, target_params):
            target_param.data.mul_(1 - tau)
            torch.add(target_param.data, param.data, alpha=tau, out=target_param.data)


def hard_update(target, source):
    for target_param, param in zip(target.parameters(), source.parameters()):
        target_param.data.copy_(param.data)
