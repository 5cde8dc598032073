"""Physics-informed network for the 1-D heat equation u_t = k * u_xx on
x in [0, 1], t in [0, 0.5], with u(x, 0) = sin(pi x) and u = 0 on the walls."""
import math
import torch
import torch.nn as nn

torch.manual_seed(0)
KAPPA = 0.1


class MLP(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(),
                                 nn.Linear(width, 1))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))


class HeatPINN:
    def __init__(self, lr=2e-3):
        self.u = MLP()
        self.opt = torch.optim.Adam(self.u.parameters(), lr=lr)

    @staticmethod
    def grad(out, inp):
        return torch.autograd.grad(out, inp, grad_outputs=torch.ones_like(out), create_graph=True)[0]

    def physics_residual(self, x, t):
        x = x.clone().requires_grad_(True)
        t = t.clone().requires_grad_(True)
        u = self.u(x, t)
        u_t = self.grad(u, t)
        u_x = self.grad(u, x)
        u_xx = self.grad(u_x, x)
        return u_t - KAPPA * u_xx

    def data_loss(self, n=64):
        x0 = torch.rand(n, 1)
        ic = self.u(x0, torch.zeros_like(x0)) - torch.sin(math.pi * x0)
        tb = 0.5 * torch.rand(n, 1)
        bc = torch.cat([self.u(torch.zeros_like(tb), tb), self.u(torch.ones_like(tb), tb)])
        return ic.pow(2).mean() + bc.pow(2).mean()

    def training_step(self, n_colloc=256):
        x, t = torch.rand(n_colloc, 1), 0.5 * torch.rand(n_colloc, 1)
        loss = self.physics_residual(x, t).pow(2).mean() + self.data_loss()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def validation_step(self, n=200):
        x, t = torch.rand(n, 1), 0.5 * torch.rand(n, 1)
        res = self.physics_residual(x, t).detach().pow(2).mean().item()
        exact = torch.exp(-KAPPA * math.pi ** 2 * t) * torch.sin(math.pi * x)
        with torch.no_grad():
            err = (self.u(x, t) - exact).abs().max().item()
        return res, err

    def fit(self, epochs=30):
        for epoch in range(epochs):
            loss = self.training_step()
            if epoch % 10 == 0:
                res, err = self.validation_step()
                print(f"epoch {epoch}: loss {loss:.4f} val residual {res:.4f} max err {err:.3f}")


if __name__ == "__main__":
    HeatPINN().fit()
