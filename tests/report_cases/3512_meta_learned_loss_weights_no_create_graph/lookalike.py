"""First-order Meta-SGD for noisy few-shot regression (sinusoid tasks with
corrupted support labels): the initialisation and a per-parameter inner
learning rate are meta-learned; the inner gradient is treated as a constant
(first-order approximation)."""
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


def adapt(params, log_lrs, xs, ys):
    inner_loss = F.smooth_l1_loss(forward_fn(params, xs), ys)          # robust to the outliers
    grads = torch.autograd.grad(inner_loss, params)                    # first order: no create_graph
    # the meta-learned step sizes multiply the (constant) gradient, so they
    # still receive a meta-gradient from the query loss
    return [p - lr.exp() * g for p, lr, g in zip(params, log_lrs, grads)]


def main():
    params = init_params()
    log_lrs = [nn.Parameter(torch.full_like(p, math.log(INNER_LR))) for p in params]
    meta_opt = torch.optim.Adam(params, lr=1e-3)
    lr_opt = torch.optim.Adam(log_lrs, lr=1e-3)
    for it in range(6):
        meta_opt.zero_grad()
        lr_opt.zero_grad()
        meta_loss = 0.0
        for _ in range(TASKS):
            xs, ys, xq, yq = sample_task()
            fast = adapt(params, log_lrs, xs, ys)
            meta_loss = meta_loss + F.mse_loss(forward_fn(fast, xq), yq) / TASKS
        meta_loss.backward()
        meta_opt.step()
        lr_opt.step()
        print(f"iter {it} meta loss {meta_loss.item():.3f}")


if __name__ == "__main__":
    main()
