"""Physics-informed network for the 1D heat equation u_t = nu * u_xx on x in [-1, 1], t in [1, 4],
with initial condition u(x, 1) = sin(pi x) and zero boundary values."""
import math
import torch
from torch import nn

torch.manual_seed(0)

CONFIG = {"n_colloc": 128, "n_ic": 32, "n_bc": 32, "nu": 0.05, "lr": 1e-2, "iters": 30, "width": 32}


class PINN(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.stack = nn.Sequential(nn.Linear(2, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(),
                                   nn.Linear(width, 1))

    def forward(self, x, t):
        return self.stack(torch.cat([t, x], dim=1))


class CollocationSet:
    def __init__(self, cfg):
        n = cfg["n_colloc"]
        self.x = torch.FloatTensor(n, 1).uniform_(-1, 1)
        self.x.requires_grad_()
        self.t = 1 + 3 * torch.rand(n, 1, requires_grad=True)
        self.t.requires_grad_()
        self.x_ic = torch.FloatTensor(cfg["n_ic"], 1).uniform_(-1, 1)
        self.t_bc = 1 + 3 * torch.rand(cfg["n_bc"], 1)


def derivative(u, wrt, order=1):
    for _ in range(order):
        u, = torch.autograd.grad(u, wrt, grad_outputs=torch.ones_like(u), create_graph=True)
    return u


def pde_loss(net, data, nu):
    u = net(data.x, data.t)
    residual = derivative(u, data.t) - nu * derivative(u, data.x, order=2)
    return residual.pow(2).mean()


def boundary_loss(net, data):
    u_ic = net(data.x_ic, torch.ones_like(data.x_ic))
    ic = (u_ic - torch.sin(math.pi * data.x_ic)).pow(2).mean()
    left = net(-torch.ones_like(data.t_bc), data.t_bc)
    right = net(torch.ones_like(data.t_bc), data.t_bc)
    return ic + left.pow(2).mean() + right.pow(2).mean()


def main(cfg):
    net = PINN(cfg["width"])
    data = CollocationSet(cfg)
    opt = torch.optim.Adam(net.parameters(), lr=cfg["lr"])
    for it in range(cfg["iters"]):
        loss = pde_loss(net, data, cfg["nu"]) + boundary_loss(net, data)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if it % 10 == 0:
            print(f"iter {it}: loss={loss.item():.5f}")


if __name__ == "__main__":
    main(CONFIG)
