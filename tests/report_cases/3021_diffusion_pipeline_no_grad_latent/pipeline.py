"""Tiny text-to-image latent diffusion pipeline in the diffusers layout: text encoder, UNet-like
noise predictor, DDIM scheduler, VAE decoder. __call__ is the sampling API (gradient-free, as in
diffusers); latent2output is the differentiable variant used for latent inversion."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


class TextEncoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.embed = nn.Embedding(128, dim)

    def forward(self, prompt):
        ids = torch.tensor([min(ord(c), 127) for c in prompt]).unsqueeze(0)
        return self.embed(ids).mean(dim=1)


class TinyUNet(nn.Module):
    def __init__(self, in_channels=4, dim=16):
        super().__init__()
        self.config = type("Config", (), {"in_channels": in_channels, "sample_size": 8})()
        self.inp = nn.Conv2d(in_channels, dim, 3, padding=1)
        self.cond = nn.Linear(dim + 1, dim)
        self.mid = nn.Conv2d(dim, dim, 3, padding=1)
        self.out = nn.Conv2d(dim, in_channels, 3, padding=1)

    def forward(self, x, t, text_emb):
        h = F.silu(self.inp(x))
        c = self.cond(torch.cat([text_emb, torch.full((x.shape[0], 1), float(t) / 1000)], dim=1))
        h = F.silu(self.mid(h + c[:, :, None, None]))
        return self.out(h)


class VAEDecoder(nn.Module):
    def __init__(self, in_channels=4):
        super().__init__()
        self.up = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(in_channels, 16, 3, padding=1), nn.SiLU(),
                                nn.Upsample(scale_factor=2), nn.Conv2d(16, 3, 3, padding=1))

    def decode(self, z):
        return self.up(z)


class DDIMScheduler:
    def __init__(self, num_train_timesteps=1000):
        betas = torch.linspace(1e-4, 0.02, num_train_timesteps)
        self.alphas_cumprod = torch.cumprod(1 - betas, dim=0)
        self.timesteps = None

    def set_timesteps(self, n):
        self.timesteps = torch.linspace(999, 0, n).long()

    def step(self, eps, t, x, prev_t):
        a_t = self.alphas_cumprod[t]
        a_prev = self.alphas_cumprod[prev_t] if prev_t >= 0 else torch.tensor(1.0)
        x0 = (x - (1 - a_t).sqrt() * eps) / a_t.sqrt()
        return a_prev.sqrt() * x0 + (1 - a_prev).sqrt() * eps


@dataclass
class PipelineOutput:
    images: torch.Tensor


class TinyDiffusionPipeline:
    vae_scale_factor = 4

    def __init__(self):
        torch.manual_seed(1234)   # "pretrained" weights
        self.text_encoder, self.unet, self.vae = TextEncoder(), TinyUNet(), VAEDecoder()
        self.scheduler = DDIMScheduler()

    def _denoise(self, prompt, latents, num_inference_steps):
        text_emb = self.text_encoder(prompt).expand(latents.shape[0], -1)
        self.scheduler.set_timesteps(num_inference_steps)
        ts = self.scheduler.timesteps.tolist()
        for i, t in enumerate(ts):
            eps = self.unet(latents, t, text_emb)
            latents = self.scheduler.step(eps, t, latents, ts[i + 1] if i + 1 < len(ts) else -1)
        image = self.vae.decode(latents)
        return (image / 2 + 0.5).clamp(0, 1)

    @torch.no_grad()
    def __call__(self, prompt, latents, num_inference_steps=4, output_type="pt"):
        return PipelineOutput(images=self._denoise(prompt, latents, num_inference_steps))

    def latent2output(self, latents, prompt, num_inference_steps=4):
        return self._denoise(prompt, latents, num_inference_steps)
