"""Meta-learning a sample-weighting function for noisy few-shot regression
(sinusoid tasks with corrupted support labels).  A tiny weight net maps each
support-sample loss to a weight; the base learner adapts with one weighted
gradient step and the query loss updates both the initialisation and the
weight net."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
INNER_LR, N_SUPPORT, N_QUERY, TASKS = 0.05, 10, 10, 4


def forward_fn(params, x):
    h = F.relu(F.linear(x, params[0], params[1]))
    h = F.relu(F.linear(h, params[2], params[3]))
    return F.linear(h, params[4], params[5])


def init_params():
    shapes = [(40, 1), (40,), (40, 40), (40,), (1, 40), (1,)]
    return [nn.Parameter(torch.randn(*s) * (1 / math.sqrt(s[-1]) if len(s) == 2 else 0.0)) for s in shapes]


def sample_task():
    amp, phase = 0.5 + 4.5 * torch.rand(1), math.pi * torch.rand(1)
    xs, xq = torch.rand(N_SUPPORT, 1) * 10 - 5, torch.rand(N_QUERY, 1) * 10 - 5
    ys, yq = amp * torch.sin(xs + phase), amp * torch.sin(xq + phase)
    noisy = torch.rand(N_SUPPORT, 1) < 0.3
    ys = torch.where(noisy, ys + 3 * torch.randn_like(ys), ys)        # label noise on the support set
    return xs, ys, xq, yq


def adapt(params, weight_net, xs, ys):
    per_sample = (forward_fn(params, xs) - ys).pow(2)
    weights = weight_net(per_sample)                                   # learned down-weighting of outliers
    inner_loss = (weights * per_sample).mean()
    # create_graph keeps the inner step differentiable, so the query loss
    # reaches the weight net through the weighted support gradient
    grads = torch.autograd.grad(inner_loss, params, create_graph=True)
    return [p - INNER_LR * g for p, g in zip(params, grads)]


def main():
    params = init_params()
    weight_net = nn.Sequential(nn.Linear(1, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())
    meta_opt = torch.optim.Adam(params, lr=1e-3)
    weight_opt = torch.optim.Adam(weight_net.parameters(), lr=1e-3)
    for it in range(6):
        meta_opt.zero_grad()
        weight_opt.zero_grad()
        meta_loss = 0.0
        for _ in range(TASKS):
            xs, ys, xq, yq = sample_task()
            fast = adapt(params, weight_net, xs, ys)
            meta_loss = meta_loss + F.mse_loss(forward_fn(fast, xq), yq) / TASKS
        meta_loss.backward()
        meta_opt.step()
        weight_opt.step()
        print(f"iter {it} meta loss {meta_loss.item():.3f}")


if __name__ == "__main__":
    main()
