"""Vanilla GAN on a synthetic 2-D ring of Gaussians.  The generator is updated
first, then the discriminator (as in the reference loop this was ported from)."""
import argparse
import math

import torch
import torch.nn as nn


def sample_ring(n, modes=8, radius=2.0, std=0.05):
    k = torch.randint(0, modes, (n,))
    angle = 2 * math.pi * k.float() / modes
    centers = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    return centers + std * torch.randn(n, 2)


class Generator(nn.Module):
    def __init__(self, z_dim, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 2))

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.LeakyReLU(0.2),
                                 nn.Linear(hidden, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


class GANTrainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.netG, self.netD = Generator(cfg["z_dim"]), Discriminator()
        self.optim_g = torch.optim.Adam(self.netG.parameters(), lr=cfg["lr"], betas=(0.5, 0.999))
        self.optim_d = torch.optim.Adam(self.netD.parameters(), lr=cfg["lr"], betas=(0.5, 0.999))
        self.criterion = nn.BCEWithLogitsLoss()

    def compute_losses(self, real):
        n = real.size(0)
        ones, zeros = torch.ones(n, 1), torch.zeros(n, 1)
        z = torch.randn(n, self.cfg["z_dim"])
        fake = self.netG(z)
        pred_fake = self.netD(fake)
        pred_real = self.netD(real)
        loss_g = self.criterion(pred_fake, ones)
        # the discriminator judges a detached copy: its loss must not reach G
        pred_fake_d = self.netD(fake.detach())
        loss_d = 0.5 * (self.criterion(pred_real, ones) + self.criterion(pred_fake_d, zeros))
        return loss_g, loss_d

    def train_step(self, real):
        # computing loss_g and loss_d...
        loss_g, loss_d = self.compute_losses(real)

        self.optim_g.zero_grad()
        loss_g.backward()
        self.optim_g.step()

        self.optim_d.zero_grad()
        loss_d.backward()
        self.optim_d.step()
        return loss_g.item(), loss_d.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--z_dim", type=int, default=8)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--batch_size", type=int, default=128)
    parser.add_argument("--lr", type=float, default=2e-4)
    args = parser.parse_args()
    torch.manual_seed(0)
    trainer = GANTrainer({"z_dim": args.z_dim, "lr": args.lr})
    for step in range(args.steps):
        lg, ld = trainer.train_step(sample_ring(args.batch_size))
        if step % 10 == 0:
            print(f"step {step} loss_g {lg:.3f} loss_d {ld:.3f}")


if __name__ == "__main__":
    main()
