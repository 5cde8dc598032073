"""Synthetic tabular data and a small scheduler helper."""
import math

import torch


def tabular_batches(n, batch=8, in_dim=10):
    w = torch.randn(in_dim, 2)
    for _ in range(n):
        x = torch.randn(batch, in_dim)
        yield x, x @ w + 0.1 * torch.randn(batch, 2)


def cosine_lr(step, total, base):
    return base * 0.5 * (1 + math.cos(math.pi * step / total))


def grad_norm(model):
    total = 0.0
    for p in model.parameters():
        if p.grad is not None:
            total += p.grad.pow(2).sum().item()
    return total ** 0.5
