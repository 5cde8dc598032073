"""Denoising regressor trained with gradient accumulation (Trainer object)."""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainConfig:
    train_num_steps: int = 3
    gradient_accumulate_every: int = 2
    train_batch_size: int = 4
    train_lr: float = 8e-5
    ema_decay: float = 0.995
    dim: int = 16
    max_grad_norm: float = 1.0


class Denoiser(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.time_mlp = nn.Sequential(nn.Linear(1, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.net = nn.Sequential(nn.Linear(dim, 2 * dim), nn.SiLU(), nn.Linear(2 * dim, dim))

    def forward(self, x, t):
        return self.net(x + self.time_mlp(t))


def p_losses(model, x_start, t):
    noise = torch.randn_like(x_start)
    alpha = torch.cos(t * math.pi / 2)
    x_noisy = alpha * x_start + (1 - alpha ** 2).sqrt() * noise
    return F.mse_loss(model(x_noisy, t), noise)


class Trainer:
    def __init__(self, model, cfg: TrainConfig):
        self.model = model
        self.cfg = cfg
        self.opt = torch.optim.Adam(model.parameters(), lr=cfg.train_lr, betas=(0.9, 0.99))
        self.step = 0
        self.total_loss = 0.0
        self.log = {"loss": [], "grad_norm": []}

    def sample_data(self):
        return torch.randn(self.cfg.train_batch_size, self.cfg.dim)

    def train(self):
        cfg = self.cfg
        while self.step < cfg.train_num_steps:
            for _ in range(cfg.gradient_accumulate_every):
                data = self.sample_data()
                t = torch.rand(data.size(0), 1)
                loss = p_losses(self.model, data, t)
                self.total_loss = self.total_loss + loss / cfg.gradient_accumulate_every

            self.total_loss.backward()
            grad_norm = nn.utils.clip_grad_norm_(self.model.parameters(), cfg.max_grad_norm)
            self.opt.step()
            self.opt.zero_grad()

            self.log["loss"].append(float(self.total_loss))
            self.log["grad_norm"].append(float(grad_norm))
            print(f"step {self.step}: loss {self.log['loss'][-1]:.4f} |g| {self.log['grad_norm'][-1]:.3f}")
            self.step += 1


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = TrainConfig()
    Trainer(Denoiser(cfg.dim), cfg).train()
