"""Meta-learning a per-layer step size (a 'trainable optimizer').

The learner's weights are updated by a differentiable SGD step whose
learning rates are themselves trained by an outer Adam optimizer.
"""
from dataclasses import dataclass
from functools import partial

import torch
import torch.nn as nn


@dataclass
class Config:
    in_dim: int = 6
    inner_steps: int = 3
    outer_steps: int = 4
    meta_lr: float = 1e-2
    init_lr: float = 0.05


class LearnedLR(nn.Module):
    def __init__(self, n_tensors, init_lr):
        super().__init__()
        self.log_lr = nn.Parameter(torch.full((n_tensors,), float(init_lr)).log())

    def forward(self, params, grads):
        lrs = self.log_lr.exp()
        return [p - lrs[i] * g for i, (p, g) in enumerate(zip(params, grads))]


def mse_loss(x, y, params):
    w, b = params
    return ((x @ w + b - y) ** 2).mean()


def make_task(cfg, n=16):
    true_w = torch.randn(cfg.in_dim, 1)
    x_tr, x_val = torch.randn(n, cfg.in_dim), torch.randn(n, cfg.in_dim)
    return (x_tr, x_tr @ true_w), (x_val, x_val @ true_w)


def main():
    torch.manual_seed(0)
    cfg = Config()
    eta = LearnedLR(n_tensors=2, init_lr=cfg.init_lr)
    meta_opt = torch.optim.Adam(eta.parameters(), lr=cfg.meta_lr)
    hidden = [torch.zeros(cfg.in_dim, 1, requires_grad=True), torch.zeros(1, requires_grad=True)]
    for outer_i in range(cfg.outer_steps):
        (x_tr, y_tr), (x_val, y_val) = make_task(cfg)
        train_loss = partial(mse_loss, x_tr, y_tr)
        for _ in range(cfg.inner_steps):
            grads = torch.autograd.grad(train_loss(hidden), hidden, create_graph=True)
            hidden = eta(hidden, grads)
        meta_loss = mse_loss(x_val, y_val, hidden)
        meta_opt.zero_grad()
        meta_loss.backward()
        meta_opt.step()
        hidden = [h.detach().requires_grad_() for h in hidden]
        print(f"outer {outer_i}: meta_loss={meta_loss.item():.4f} lr={eta.log_lr.exp().tolist()}")


if __name__ == "__main__":
    main()
