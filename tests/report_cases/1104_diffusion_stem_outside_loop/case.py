"""DDPM-style training on multichannel 1-D recordings.

The recordings have 3 sensor channels; a learned 1x1 Conv1d stem maps them to the
denoiser's channel count before noising.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

TIMESTEPS = 50
SEQ_LEN = 32
RAW_CHANNELS = 3
MODEL_CHANNELS = 8


def linear_beta_schedule(timesteps):
    return torch.linspace(1e-4, 0.02, timesteps)


betas = linear_beta_schedule(TIMESTEPS)
alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
sqrt_ac = alphas_cumprod.sqrt()
sqrt_1m_ac = (1.0 - alphas_cumprod).sqrt()


def extract(a, t, x_shape):
    return a.gather(-1, t).reshape(t.shape[0], *((1,) * (len(x_shape) - 1)))


def q_sample(x_start, t, noise):
    return extract(sqrt_ac, t, x_start.shape) * x_start + extract(sqrt_1m_ac, t, x_start.shape) * noise


class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(torch.arange(half) * -(math.log(10000) / (half - 1)))
        args = t[:, None].float() * freqs[None]
        return torch.cat((args.sin(), args.cos()), dim=-1)


class Unet1D(nn.Module):
    def __init__(self, channels, dim=16):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPosEmb(dim), nn.Linear(dim, dim), nn.GELU())
        self.inp = nn.Conv1d(channels, dim, 3, padding=1)
        self.mid = nn.Conv1d(dim, dim, 3, padding=1)
        self.out = nn.Conv1d(dim, channels, 1)

    def forward(self, x, t):
        h = F.gelu(self.inp(x))
        h = h + self.time_mlp(t)[:, :, None]
        h = F.gelu(self.mid(h))
        return self.out(h)


def main(train_steps=6, batch_size=8):
    recordings = torch.randn(64, RAW_CHANNELS, SEQ_LEN)
    stem = nn.Conv1d(RAW_CHANNELS, MODEL_CHANNELS, kernel_size=1)
    dataset = stem(recordings)

    model = Unet1D(MODEL_CHANNELS)
    opt = torch.optim.Adam([*model.parameters(), *stem.parameters()], lr=1e-3)

    for step in range(train_steps):
        idx = torch.randint(0, dataset.shape[0], (batch_size,))
        x_start = dataset[idx]
        t = torch.randint(0, TIMESTEPS, (batch_size,)).long()
        noise = torch.randn_like(x_start)
        x_noisy = q_sample(x_start, t, noise)
        loss = F.mse_loss(model(x_noisy, t), noise)

        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
