"""Learning a control Lyapunov-barrier function (CLBF) and a controller for
an inverted pendulum, in the style of a LightningModule training_step."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

G, L, M, B = 9.81, 0.5, 1.0, 0.01


def pendulum_dynamics(x):
    theta, omega = x[:, 0:1], x[:, 1:2]
    f = torch.cat([omega, G / L * torch.sin(theta) - B / (M * L ** 2) * omega], dim=1)
    g = torch.cat([torch.zeros_like(theta), torch.full_like(theta, 1.0 / (M * L ** 2))], dim=1)
    return f, g.unsqueeze(-1)


class CLBFController(nn.Module):
    def __init__(self, hidden=32, clbf_lambda=1.0, safe_level=1.0, eps=0.01):
        super().__init__()
        self.V_net = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.u_net = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.clbf_lambda = clbf_lambda
        self.safe_level = safe_level
        self.eps = eps

    def V(self, x):
        z = self.V_net(x)
        return 0.5 * (z * z).sum(dim=1, keepdim=True)

    def V_with_jacobian(self, x):
        x = x.requires_grad_(True)
        v = self.V(x)
        (dv,) = torch.autograd.grad(v.sum(), x, create_graph=True)
        return v, dv

    def boundary_loss(self, x, goal, safe_mask, unsafe_mask):
        loss = 0.5 * self.V(goal).pow(2).mean()
        v = self.V(x)
        safe_violation = F.relu(self.eps + v[safe_mask] - self.safe_level)
        unsafe_violation = F.relu(self.eps + self.safe_level - v[unsafe_mask])
        loss += safe_violation.mean() + unsafe_violation.mean()
        return loss

    def descent_loss(self, x, unsafe_mask):
        v, dv = self.V_with_jacobian(x)
        f, g = pendulum_dynamics(x)
        u = self.u_net(x)
        xdot = f + torch.bmm(g, u.unsqueeze(-1)).squeeze(-1)
        vdot = (dv * xdot).sum(dim=1, keepdim=True)
        margin = self.eps + vdot + self.clbf_lambda * v
        margin *= (~unsafe_mask).float().unsqueeze(1)
        violation = F.relu(margin)
        return violation.mean() + 1e-3 * u.pow(2).mean()


class CLBFTrainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def sample_batch(self, n=128):
        x = torch.empty(n, 2).uniform_(-math.pi / 2, math.pi / 2)
        radius = x.norm(dim=1)
        safe_mask = radius < 0.5
        unsafe_mask = radius > 1.2
        return x, safe_mask, unsafe_mask

    def training_step(self, batch):
        x, safe_mask, unsafe_mask = batch
        goal = torch.zeros(1, 2)
        loss = self.model.descent_loss(x, unsafe_mask)
        loss = loss + self.model.boundary_loss(x, goal, safe_mask, unsafe_mask)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def fit(self, steps=30):
        for step in range(steps):
            loss = self.training_step(self.sample_batch())
            if step % 10 == 0:
                print(f"step {step} clbf loss {loss:.4f}")


if __name__ == "__main__":
    CLBFTrainer(CLBFController()).fit()
