import torch
import torch.nn as nn
import torch.nn.functional as F


def linear_beta_schedule(timesteps):
    return torch.linspace(1e-4, 0.02, timesteps)


class GaussianDiffusion(nn.Module):
    """Epsilon-prediction DDPM objective around a denoising network."""

    def __init__(self, denoise_fn, timesteps=50):
        super().__init__()
        self.denoise_fn = denoise_fn
        self.num_timesteps = timesteps
        betas = linear_beta_schedule(timesteps)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.register_buffer("sqrt_alphas_cumprod", alphas_cumprod.sqrt())
        self.register_buffer("sqrt_one_minus_alphas_cumprod", (1.0 - alphas_cumprod).sqrt())

    def q_sample(self, x_start, t, noise):
        return (self.sqrt_alphas_cumprod[t][:, None, None, None] * x_start
                + self.sqrt_one_minus_alphas_cumprod[t][:, None, None, None] * noise)

    def p_losses(self, x_start, t):
        noise = torch.randn_like(x_start)
        x_noisy = self.q_sample(x_start, t, noise)
        return F.mse_loss(self.denoise_fn(x_noisy, t), noise)

    def forward(self, x):
        t = torch.randint(0, self.num_timesteps, (x.shape[0],))
        return self.p_losses(x, t)
