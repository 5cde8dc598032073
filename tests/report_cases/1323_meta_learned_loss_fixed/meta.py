"""Functional learner + learned loss (ML3-style) for sine regression tasks."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LearnedLoss(nn.Module):
    """Maps (prediction, target) pairs to a non-negative scalar loss."""

    def __init__(self, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1), nn.Softplus())

    def forward(self, pred, target):
        return self.net(torch.cat([pred, target], dim=-1)).mean()


def init_learner(hidden=20, generator=None):
    def w(*shape, fan_in):
        return (torch.randn(*shape, generator=generator) / math.sqrt(fan_in)).requires_grad_()
    return [w(hidden, 1, fan_in=1), torch.zeros(hidden, requires_grad=True),
            w(hidden, hidden, fan_in=hidden), torch.zeros(hidden, requires_grad=True),
            w(1, hidden, fan_in=hidden), torch.zeros(1, requires_grad=True)]


def learner_forward(x, params):
    h = F.relu(F.linear(x, params[0], params[1]))
    h = F.relu(F.linear(h, params[2], params[3]))
    return F.linear(h, params[4], params[5])


def inner_adapt(params, loss_fn, x, y, lr, steps):
    """A few steps of plain gradient descent on the learned loss."""
    for _ in range(steps):
        pred = learner_forward(x, params)
        inner_loss = loss_fn(pred, y)
        grads = torch.autograd.grad(inner_loss, params, create_graph=True)
        params = [p - lr * g for p, g in zip(params, grads)]
    return params


def sample_task(n, generator):
    amp = 0.5 + 4.5 * torch.rand(1, generator=generator)
    phase = math.pi * torch.rand(1, generator=generator)
    x = 10 * torch.rand(n, 1, generator=generator) - 5
    return x, amp * torch.sin(x + phase)
