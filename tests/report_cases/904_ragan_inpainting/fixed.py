"""Relativistic-average GAN objective for a small inpainting generator."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    dim: int = 16
    batch: int = 6
    iters: int = 4
    lr: float = 1e-3
    lambda_adv: float = 0.05


class Inpainter(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2 * dim, 48), nn.ReLU(), nn.Linear(48, dim))

    def forward(self, corrupted, mask):
        return self.body(torch.cat([corrupted, mask], 1))


class Critic(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)


def ra_loss(pred_a, pred_b, target_real):
    t = torch.ones_like(pred_a) if target_real else torch.zeros_like(pred_a)
    return F.binary_cross_entropy_with_logits(pred_a - pred_b.mean(), t)


def main(cfg=Config()):
    g, d = Inpainter(cfg.dim), Critic(cfg.dim)
    opt_g = torch.optim.Adam(g.parameters(), lr=cfg.lr)
    opt_d = torch.optim.Adam(d.parameters(), lr=cfg.lr)
    for it in range(cfg.iters):
        real = torch.randn(cfg.batch, cfg.dim)
        mask = (torch.rand(cfg.batch, cfg.dim) > 0.3).float()
        fake = g(real * mask, mask)

        opt_d.zero_grad()
        pred_real = d(real)
        pred_fake = d(fake.detach())
        loss_d = 0.5 * (ra_loss(pred_real, pred_fake, True) + ra_loss(pred_fake, pred_real, False))
        loss_d.backward()
        opt_d.step()

        opt_g.zero_grad()
        pred_fake_g = d(fake)
        pred_real = d(real).detach()
        loss_adv = 0.5 * (ra_loss(pred_real, pred_fake_g, False) + ra_loss(pred_fake_g, pred_real, True))
        loss_rec = F.l1_loss(fake * (1 - mask), real * (1 - mask))
        loss_g = loss_rec + cfg.lambda_adv * loss_adv
        loss_g.backward()
        opt_g.step()
        print(it, round(loss_d.item(), 4), round(loss_g.item(), 4))


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
