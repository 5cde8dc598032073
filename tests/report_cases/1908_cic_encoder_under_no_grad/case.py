"""Unsupervised pre-training loop: a few CIC agent updates on random pixel batches."""
import torch

from agent import CICAgent

torch.manual_seed(0)

agent = CICAgent(obs_shape=(3, 15, 15), action_dim=2)


def sample_batch(batch_size=8):
    obs = torch.randint(0, 256, (batch_size, 3, 15, 15)).float()
    next_obs = torch.randint(0, 256, (batch_size, 3, 15, 15)).float()
    action = torch.rand(batch_size, 2) * 2 - 1
    return obs, action, torch.zeros(batch_size, 1), torch.ones(batch_size, 1), next_obs


for step in range(4):
    metrics = agent.update(sample_batch())
    print(step, metrics)
