"""Inverse diffusion problem with a PINN: u_t = u_xx - e^{-t}(sin(pi x) - pi^2 sin(pi x)),
with the unknown constant C inside the initial condition u(x, 0) = sin(C x). Condition values
are cached per set of collocation points (as the BC/IC helpers of the PINN library do)."""
import math
import torch
import torch.nn as nn

torch.manual_seed(0)


class IC:
    """Initial condition u(x, 0) = func(x); values cached for a given array of points."""

    def __init__(self, func, component=0):
        self.func = func
        self.component = component
        self._cache = {}

    def values(self, X):
        key = id(X)
        if key not in self._cache:
            self._cache[key] = self.func(X)
        return self._cache[key]

    def error(self, X, outputs):
        return outputs[:, self.component:self.component + 1] - self.values(X)


class FNN(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.linears = nn.ModuleList(nn.Linear(a, b) for a, b in zip(layers[:-1], layers[1:]))

    def forward(self, x):
        for linear in self.linears[:-1]:
            x = torch.tanh(linear(x))
        return self.linears[-1](x)


def pde(x, y):
    dy = torch.autograd.grad(y, x, torch.ones_like(y), create_graph=True)[0]
    dy_x, dy_t = dy[:, 0:1], dy[:, 1:2]
    dy_xx = torch.autograd.grad(dy_x, x, torch.ones_like(dy_x), create_graph=True)[0][:, 0:1]
    src = torch.exp(-x[:, 1:2]) * (torch.sin(math.pi * x[:, 0:1]) - math.pi ** 2 * torch.sin(math.pi * x[:, 0:1]))
    return dy_t - dy_xx + src


C = nn.Parameter(torch.tensor(2.0))
ic = IC(lambda x: torch.sin(C * x[:, 0:1]))

x_domain = torch.cat([2 * torch.rand(64, 1) - 1, torch.rand(64, 1)], dim=1).requires_grad_(True)
x_initial = torch.cat([2 * torch.rand(16, 1) - 1, torch.zeros(16, 1)], dim=1)
x_observe = torch.cat([torch.linspace(-1, 1, 10).unsqueeze(1), torch.ones(10, 1)], dim=1)
y_observe = torch.sin(math.pi * x_observe[:, 0:1]) * math.exp(-1)

net = FNN([2, 16, 16, 1])
optimizer = torch.optim.Adam(list(net.parameters()) + [C], lr=1e-3)


def closure():
    loss_pde = (pde(x_domain, net(x_domain)) ** 2).mean()
    loss_ic = (ic.error(x_initial, net(x_initial)) ** 2).mean()
    loss_obs = ((net(x_observe) - y_observe) ** 2).mean()
    return loss_pde + loss_ic + loss_obs


for step in range(30):
    optimizer.zero_grad()
    total_loss = closure()
    total_loss.backward()
    optimizer.step()
    if step % 10 == 0:
        print(f"step {step}: loss {total_loss.item():.4f}  C = {C.item():.4f}")
