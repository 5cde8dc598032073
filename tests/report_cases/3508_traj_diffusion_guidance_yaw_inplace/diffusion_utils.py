"""Shared pieces for the trajectory diffusion scripts: a DDPM noise schedule,
a small MLP denoiser conditioned on the agent history, and a toy dataset of
smooth vehicle trajectories (x, y, yaw) over T future steps."""
import math
import torch
import torch.nn as nn

T_FUT, N_DIFF = 12, 50


def make_schedule(n=N_DIFF):
    betas = torch.linspace(1e-4, 0.05, n)
    alphas_bar = torch.cumprod(1 - betas, 0)
    return alphas_bar


class Denoiser(nn.Module):
    def __init__(self, hidden=96):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(T_FUT * 3 + 4 + 1, hidden), nn.SiLU(),
                                 nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, T_FUT * 3))

    def forward(self, x_t, cond, t_frac):
        inp = torch.cat([x_t.flatten(1), cond, t_frac[:, None]], 1)
        return self.net(inp).view(-1, T_FUT, 3)


def sample_batch(n=16):
    """cond = current (x, y, yaw, speed); target = future (x, y, yaw)."""
    yaw0 = (torch.rand(n) - 0.5) * math.pi
    speed = 1 + torch.rand(n)
    turn = (torch.rand(n) - 0.5) * 0.2
    t = torch.arange(1, T_FUT + 1).float()
    yaw = yaw0[:, None] + turn[:, None] * t
    x = torch.cumsum(speed[:, None] * torch.cos(yaw), 1)
    y = torch.cumsum(speed[:, None] * torch.sin(yaw), 1)
    cond = torch.stack([torch.zeros(n), torch.zeros(n), yaw0, speed], 1)
    return cond, torch.stack([x, y, yaw], 2)
