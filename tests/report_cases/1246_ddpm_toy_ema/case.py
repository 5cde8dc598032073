"""DDPM (epsilon prediction) on a 2-D toy distribution, with an EMA copy used for sampling."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SinusoidalEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
        args = t.float()[:, None] * freqs[None]
        return torch.cat([args.sin(), args.cos()], dim=-1)


class Denoiser(nn.Module):
    def __init__(self, hidden=64, t_dim=16):
        super().__init__()
        self.t_embed = nn.Sequential(SinusoidalEmbedding(t_dim), nn.Linear(t_dim, hidden), nn.SiLU())
        self.inp = nn.Linear(2, hidden)
        self.mid = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.out = nn.Linear(hidden, 2)

    def forward(self, x, t):
        h = self.inp(x) + self.t_embed(t)
        h = h + self.mid(h)
        return self.out(F.silu(h))


class GaussianDiffusion:
    def __init__(self, timesteps=50, beta_start=1e-4, beta_end=0.02):
        self.T = timesteps
        self.betas = torch.linspace(beta_start, beta_end, timesteps)
        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = torch.cumprod(self.alphas, dim=0)

    def q_sample(self, x0, t, noise):
        a = self.alphas_cumprod[t].sqrt()[:, None]
        s = (1 - self.alphas_cumprod[t]).sqrt()[:, None]
        return a * x0 + s * noise

    def training_loss(self, model, x0):
        t = torch.randint(0, self.T, (x0.size(0),))
        noise = torch.randn_like(x0)
        x_t = self.q_sample(x0, t, noise)
        return F.mse_loss(model(x_t, t), noise)

    @torch.no_grad()
    def sample(self, model, n):
        x = torch.randn(n, 2)
        for i in reversed(range(self.T)):
            t = torch.full((n,), i, dtype=torch.long)
            eps = model(x, t)
            coef = self.betas[i] / (1 - self.alphas_cumprod[i]).sqrt()
            x = (x - coef * eps) / self.alphas[i].sqrt()
            if i > 0:
                x += self.betas[i].sqrt() * torch.randn_like(x)
        return x


@torch.no_grad()
def update_ema(ema_model, model, decay):
    for ema_p, p in zip(ema_model.parameters(), model.parameters()):
        ema_p.lerp_(p, 1.0 - decay)


def two_moons(n):
    theta = torch.rand(n) * math.pi
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, theta.cos(), 1 - theta.cos())
    y = torch.where(upper, theta.sin(), 0.5 - theta.sin())
    return torch.stack([x, y], dim=1) + 0.05 * torch.randn(n, 2)


def main():
    torch.manual_seed(0)
    diffusion = GaussianDiffusion()
    model = Denoiser()
    ema = copy.deepcopy(model).requires_grad_(False)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    log = {"loss": []}
    for step in range(8):
        x0 = two_moons(64)
        loss = diffusion.training_loss(model, x0)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        update_ema(ema, model, decay=0.99)
        log["loss"].append(loss.item())
    print("last losses", [round(v, 4) for v in log["loss"][-3:]])
    samples = diffusion.sample(ema, 16)
    print("sample mean", samples.mean(0).tolist())


if __name__ == "__main__":
    main()
