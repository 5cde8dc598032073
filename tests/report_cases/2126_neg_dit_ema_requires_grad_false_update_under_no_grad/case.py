"""DiT/SiT-style latent diffusion training loop: a frozen "VAE" encodes images
under torch.no_grad() (latents scaled in place with mul_), a class-conditional
denoiser learns to predict noise, and an EMA copy with requires_grad(False) is
updated in place under @torch.no_grad() after every step."""
import math
from collections import OrderedDict
from copy import deepcopy

import torch
import torch.nn as nn
import torch.nn.functional as F


def requires_grad(model, flag=True):
    for p in model.parameters():
        p.requires_grad = flag


@torch.no_grad()
def update_ema(ema_model, model, decay=0.9999):
    ema_params = OrderedDict(ema_model.named_parameters())
    model_params = OrderedDict(model.named_parameters())
    for name, param in model_params.items():
        ema_params[name].mul_(decay).add_(param.data, alpha=1 - decay)


class TinyVAEEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.SiLU(), nn.Conv2d(8, 4, 4, 2, 1))

    def encode(self, x):
        return self.net(x)


class TinyDiT(nn.Module):
    def __init__(self, channels=4, size=4, num_classes=5, hidden=64):
        super().__init__()
        d = channels * size * size
        self.y_embedder = nn.Embedding(num_classes + 1, hidden)  # last index = null class
        self.t_proj = nn.Linear(32, hidden)
        self.net = nn.Sequential(nn.Linear(d + hidden, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, d))
        self.shape = (channels, size, size)

    def timestep_embedding(self, t, dim=32):
        freqs = torch.exp(-math.log(10000) * torch.arange(dim // 2) / (dim // 2))
        args = t[:, None].float() * freqs[None]
        return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)

    def forward(self, x, t, y):
        c = self.t_proj(self.timestep_embedding(t)) + self.y_embedder(y)
        out = self.net(torch.cat([x.flatten(1), c], dim=1))
        return out.view(-1, *self.shape)


class GaussianDiffusion:
    def __init__(self, num_timesteps=100):
        betas = torch.linspace(1e-4, 0.02, num_timesteps)
        self.alphas_cumprod = torch.cumprod(1 - betas, dim=0)
        self.num_timesteps = num_timesteps

    def q_sample(self, x_start, t, noise):
        a = self.alphas_cumprod[t].view(-1, 1, 1, 1)
        return a.sqrt() * x_start + (1 - a).sqrt() * noise

    def training_losses(self, model, x_start, t, model_kwargs):
        noise = torch.randn_like(x_start)
        x_t = self.q_sample(x_start, t, noise)
        model_output = model(x_t, t, **model_kwargs)
        return {"loss": F.mse_loss(model_output, noise, reduction="none").mean(dim=(1, 2, 3))}


def main(train_steps=6, log_every=2):
    torch.manual_seed(0)
    model = TinyDiT()
    ema = deepcopy(model)
    requires_grad(ema, False)
    vae = TinyVAEEncoder().eval()
    diffusion = GaussianDiffusion()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0)

    update_ema(ema, model, decay=0)
    model.train()
    ema.eval()
    running_loss, log_steps = 0.0, 0
    for step in range(train_steps):
        x = torch.rand(8, 3, 16, 16) * 2 - 1
        y = torch.randint(0, 5, (8,))
        with torch.no_grad():
            x = vae.encode(x).mul_(0.18215)
        t = torch.randint(0, diffusion.num_timesteps, (x.shape[0],))
        loss_dict = diffusion.training_losses(model, x, t, dict(y=y))
        loss = loss_dict["loss"].mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        update_ema(ema, model)

        running_loss += loss.item()
        log_steps += 1
        if (step + 1) % log_every == 0:
            print(f"(step={step + 1:04d}) Train Loss: {running_loss / log_steps:.4f}")
            running_loss, log_steps = 0.0, 0


if __name__ == "__main__":
    main()
