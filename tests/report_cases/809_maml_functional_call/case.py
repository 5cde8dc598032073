"""Second-order MAML on sine-wave regression using torch.func.functional_call."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
INNER_LR, INNER_STEPS, META_BATCH = 0.01, 2, 4

net = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))
meta_optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)


def sample_task(k=10):
    amp, phase = torch.empty(1).uniform_(0.1, 5.0), torch.empty(1).uniform_(0, 3.14)
    x = torch.empty(2 * k, 1).uniform_(-5, 5)
    y = amp * torch.sin(x - phase)
    return (x[:k], y[:k]), (x[k:], y[k:])


def adapt(params, x, y):
    for _ in range(INNER_STEPS):
        loss = F.mse_loss(functional_call(net, params, (x,)), y)
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
        params = {name: p - INNER_LR * g for (name, p), g in zip(params.items(), grads)}
    return params


meta_losses = []
for meta_iter in range(5):
    meta_optimizer.zero_grad()
    outer_loss = 0.0
    for _ in range(META_BATCH):
        (xs, ys), (xq, yq) = sample_task()
        fast = adapt(dict(net.named_parameters()), xs, ys)
        outer_loss = outer_loss + F.mse_loss(functional_call(net, fast, (xq,)), yq)
    outer_loss = outer_loss / META_BATCH
    outer_loss.backward()
    meta_optimizer.step()
    meta_losses.append(outer_loss.item())

print([round(v, 3) for v in meta_losses])
