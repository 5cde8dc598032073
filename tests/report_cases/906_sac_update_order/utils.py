"""Replay sampling and target-network helpers."""
import copy

import torch


def make_target(net):
    target = copy.deepcopy(net)
    for p in target.parameters():
        p.requires_grad_(False)
    return target


@torch.no_grad()
def soft_update(target, source, tau=0.01):
    for tp, sp in zip(target.parameters(), source.parameters()):
        tp.mul_(1 - tau).add_(tau * sp)


def sample_batch(batch, obs_dim, act_dim):
    return {
        "obs": torch.randn(batch, obs_dim),
        "act": torch.rand(batch, act_dim) * 2 - 1,
        "rew": torch.randn(batch, 1),
        "next_obs": torch.randn(batch, obs_dim),
        "done": torch.zeros(batch, 1),
    }
