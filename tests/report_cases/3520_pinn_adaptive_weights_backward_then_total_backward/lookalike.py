"""Physics-informed network for the 1-D heat equation u_t = nu * u_xx on
x in [-1, 1], t in [0, 1], with u(x, 0) = sin(pi x) and u(+-1, t) = 0.
The boundary/initial weight is fixed; the gradient norm is logged."""
import math
import torch
import torch.nn as nn

torch.manual_seed(0)
NU = 0.1


class PINN(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(), nn.Linear(width, 1))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], 1))


def pde_residual(model, x, t):
    x.requires_grad_(True); t.requires_grad_(True)
    u = model(x, t)
    u_t, u_x = torch.autograd.grad(u.sum(), (t, x), create_graph=True)
    u_xx = torch.autograd.grad(u_x.sum(), x, create_graph=True)[0]
    return u_t - NU * u_xx


def data_loss(model):
    x0 = torch.rand(64, 1) * 2 - 1
    ic = (model(x0, torch.zeros_like(x0)) - torch.sin(math.pi * x0)).pow(2).mean()
    tb = torch.rand(32, 1)
    bc = model(torch.ones_like(tb), tb).pow(2).mean() + model(-torch.ones_like(tb), tb).pow(2).mean()
    return ic + bc


def grad_norm(model):
    """Norm of the gradients already accumulated by the last backward (monitoring)."""
    return torch.cat([p.grad.flatten() for p in model.parameters() if p.grad is not None]).norm().item()


def main():
    model = PINN()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    lam = 5.0
    for it in range(6):
        x, t = torch.rand(128, 1) * 2 - 1, torch.rand(128, 1)
        loss_r = pde_residual(model, x, t).pow(2).mean()
        loss_d = data_loss(model)
        loss = loss_r + lam * loss_d
        opt.zero_grad()
        loss.backward()
        gnorm = grad_norm(model)                       # reads .grad, no second backward
        opt.step()
        print(f"iter {it} residual {loss_r.item():.4f} data {loss_d.item():.4f} |g| {gnorm:.3f}")


if __name__ == "__main__":
    main()
