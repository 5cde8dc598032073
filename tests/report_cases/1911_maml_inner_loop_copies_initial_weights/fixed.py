"""MAML on random sine-regression tasks with a small functional inner loop.

InnerLoop mimics higher.innerloop_ctx: it builds a functional copy of the model,
takes differentiable SGD steps on the support set and returns the adapted weights.
By default (like higher's copy_initial_weights=True) the initial fast weights are
copies of the model's parameters.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)


class InnerLoop:
    def __init__(self, model, inner_lr=0.01, copy_initial_weights=True):
        self.model = model
        self.inner_lr = inner_lr
        self.copy_initial_weights = copy_initial_weights

    def initial_params(self):
        if self.copy_initial_weights:
            return {n: p.clone().detach().requires_grad_(True) for n, p in self.model.named_parameters()}
        return dict(self.model.named_parameters())

    def adapt(self, x_spt, y_spt, steps=1):
        params = self.initial_params()
        for _ in range(steps):
            loss = F.mse_loss(functional_call(self.model, params, (x_spt,)), y_spt)
            grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
            params = {n: p - self.inner_lr * g for (n, p), g in zip(params.items(), grads)}
        return params


def sample_task(n=10):
    amp, phase = 0.1 + 4.9 * torch.rand(1), math.pi * torch.rand(1)
    x = torch.rand(2 * n, 1) * 10 - 5
    y = amp * torch.sin(x + phase)
    return x[:n], y[:n], x[n:], y[n:]


model = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))
meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
inner = InnerLoop(model, inner_lr=0.01, copy_initial_weights=False)

for meta_iter in range(4):
    meta_opt.zero_grad()
    qry_losses = []
    for task in range(3):
        x_spt, y_spt, x_qry, y_qry = sample_task()
        fast_weights = inner.adapt(x_spt, y_spt, steps=2)
        qry_loss = F.mse_loss(functional_call(model, fast_weights, (x_qry,)), y_qry)
        qry_loss.backward()
        qry_losses.append(qry_loss.item())
    meta_opt.step()
    print(meta_iter, sum(qry_losses) / len(qry_losses))
