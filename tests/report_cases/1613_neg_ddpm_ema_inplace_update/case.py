"""DDPM on a 2-D two-moons-like point cloud, with an EMA copy of the denoiser used for sampling."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

T = 50
EMA_DECAY = 0.99


def make_moons(n=512, noise=0.05):
    t = math.pi * torch.rand(n)
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))
    return torch.stack([x, y], dim=1) + noise * torch.randn(n, 2)


def timestep_embedding(t, dim=16):
    half = dim // 2
    freqs = torch.exp(-math.log(1000.0) * torch.arange(half) / half)
    args = t.float().unsqueeze(1) * freqs.unsqueeze(0)
    return torch.cat([torch.sin(args), torch.cos(args)], dim=1)


class Denoiser(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(2 + 16, hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.SiLU(),
            nn.Linear(hidden, 2),
        )

    def forward(self, x, t):
        return self.net(torch.cat([x, timestep_embedding(t)], dim=1))


betas = torch.linspace(1e-4, 0.05, T)
alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, dim=0)


def q_sample(x0, t, noise):
    a = alphas_cumprod[t].sqrt().unsqueeze(1)
    s = (1 - alphas_cumprod[t]).sqrt().unsqueeze(1)
    return a * x0 + s * noise


@torch.no_grad()
def update_ema(ema_model, model, decay=EMA_DECAY):
    for ema_p, p in zip(ema_model.parameters(), model.parameters()):
        ema_p.mul_(decay).add_(p.detach(), alpha=1 - decay)


@torch.no_grad()
def sample(model, n=256):
    x = torch.randn(n, 2)
    for i in reversed(range(T)):
        t = torch.full((n,), i, dtype=torch.long)
        eps = model(x, t)
        x = (x - betas[i] / (1 - alphas_cumprod[i]).sqrt() * eps) / alphas[i].sqrt()
        if i > 0:
            x += betas[i].sqrt() * torch.randn_like(x)
    return x


def main():
    data = make_moons()
    model = Denoiser()
    ema_model = copy.deepcopy(model).requires_grad_(False)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(80):
        x0 = data[torch.randint(len(data), (128,))]
        t = torch.randint(T, (x0.size(0),))
        noise = torch.randn_like(x0)
        loss = F.mse_loss(model(q_sample(x0, t, noise), t), noise)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        update_ema(ema_model, model)
        if step % 50 == 0:
            print(f"step {step}: loss {loss.item():.4f}")
    samples = sample(ema_model)
    print("sample mean:", samples.mean(0).tolist())


if __name__ == "__main__":
    main()
