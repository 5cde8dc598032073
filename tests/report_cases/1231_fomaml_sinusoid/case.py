"""First-order MAML on sinusoid regression (Finn et al., 2017) with torch.func."""
import math
import random
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

META = dict(meta_batch=4, k_shot=5, k_query=10, inner_steps=2, inner_lr=0.01, meta_lr=1e-3,
            meta_iters=4, hidden=40)


def sample_task():
    amp = random.uniform(0.1, 5.0)
    phase = random.uniform(0, math.pi)

    def sample(n):
        x = torch.rand(n, 1) * 10 - 5
        return x, amp * torch.sin(x + phase)

    return sample


class Regressor(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


def adapt(model, x_spt, y_spt, steps, lr):
    fast = OrderedDict((name, p.detach().clone().requires_grad_(True))
                       for name, p in model.named_parameters())
    for _ in range(steps):
        loss = F.mse_loss(functional_call(model, fast, (x_spt,)), y_spt)
        grads = torch.autograd.grad(loss, list(fast.values()))
        fast = OrderedDict((name, w - lr * g) for (name, w), g in zip(fast.items(), grads))
    return fast


def meta_train(cfg):
    random.seed(0)
    torch.manual_seed(0)
    model = Regressor(cfg["hidden"])
    meta_opt = torch.optim.Adam(model.parameters(), lr=cfg["meta_lr"])
    for it in range(cfg["meta_iters"]):
        meta_opt.zero_grad()
        query_losses = []
        for _ in range(cfg["meta_batch"]):
            task = sample_task()
            x_spt, y_spt = task(cfg["k_shot"])
            x_qry, y_qry = task(cfg["k_query"])
            fast = adapt(model, x_spt, y_spt, cfg["inner_steps"], cfg["inner_lr"])
            qry_loss = F.mse_loss(functional_call(model, fast, (x_qry,)), y_qry)
            (qry_loss / cfg["meta_batch"]).backward()
            query_losses.append(qry_loss.item())
        meta_opt.step()
        print(f"meta-iter {it}: query mse {sum(query_losses) / len(query_losses):.3f}")


if __name__ == "__main__":
    meta_train(META)
