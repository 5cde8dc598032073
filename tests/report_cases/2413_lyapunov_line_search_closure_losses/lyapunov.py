import torch
import torch.nn as nn


class LyapunovNet(nn.Module):
    """V(x) = |phi(x) - phi(x*)|_1 + eps * |x - x*|_1  (V(x*) = 0 by construction)."""

    def __init__(self, x_dim, hidden=16, eps=0.01):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(x_dim, hidden), nn.LeakyReLU(0.1),
                                 nn.Linear(hidden, hidden), nn.LeakyReLU(0.1), nn.Linear(hidden, 1))
        self.eps = eps

    def forward(self, x, x_equilibrium):
        return ((self.phi(x) - self.phi(x_equilibrium)).abs().squeeze(-1)
                + self.eps * (x - x_equilibrium).abs().sum(-1))


def lyapunov_positivity_loss(V, x, x_eq, margin=0.01):
    return torch.relu(margin * (x - x_eq).abs().sum(-1) - V).mean()


def lyapunov_derivative_loss(V_fn, dynamics, x, x_eq, epsilon=0.1):
    x = x.clone().requires_grad_(True)
    V = V_fn(x, x_eq)
    dVdx = torch.autograd.grad(V.sum(), x, create_graph=True)[0]
    Vdot = (dVdx * dynamics(x)).sum(-1)
    return torch.relu(Vdot + epsilon * V).mean()
