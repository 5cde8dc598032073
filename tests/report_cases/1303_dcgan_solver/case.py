"""DCGAN-style solver on a toy 1-D signal distribution."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.optim as optim

from networks import Discriminator, Generator, weights_init


@dataclass
class SolverConfig:
    nz: int = 8
    ngf: int = 16
    ndf: int = 16
    data_dim: int = 12
    batch_size: int = 16
    lr: float = 2e-4
    beta1: float = 0.5
    n_iters: int = 4
    log_every: int = 1
    history: dict = field(default_factory=lambda: {"D": [], "G": [], "D_x": []})


class Solver:
    real_label = 1.0
    fake_label = 0.0

    def __init__(self, cfg: SolverConfig):
        self.cfg = cfg
        self.netG = Generator(cfg.nz, cfg.ngf, cfg.data_dim)
        self.netD = Discriminator(cfg.data_dim, cfg.ndf)
        self.netG.apply(weights_init)
        self.netD.apply(weights_init)
        self.criterion = nn.BCEWithLogitsLoss()
        self.optimizerD = optim.Adam(self.netD.parameters(), lr=cfg.lr, betas=(cfg.beta1, 0.999))
        self.optimizerG = optim.Adam(self.netG.parameters(), lr=cfg.lr, betas=(cfg.beta1, 0.999))
        self.grid = torch.linspace(-1, 1, cfg.data_dim)

    def sample_real(self):
        phase = torch.rand(self.cfg.batch_size, 1) * 3.14
        return torch.sin(self.grid * 3.0 + phase)

    def train_iter(self, it):
        real = self.sample_real()
        b = real.size(0)
        label = torch.full((b,), self.real_label)

        # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
        self.netD.zero_grad()
        output = self.netD(real)
        errD_real = self.criterion(output, label)
        errD_real.backward()
        D_x = torch.sigmoid(output).mean().item()

        noise = torch.randn(b, self.cfg.nz)
        fake = self.netG(noise)
        label.fill_(self.fake_label)
        output = self.netD(fake)
        errD_fake = self.criterion(output, label)
        errD_fake.backward()
        errD = errD_real + errD_fake
        self.optimizerD.step()

        # (2) Update G network: maximize log(D(G(z)))
        self.netG.zero_grad()
        label.fill_(self.real_label)
        output = self.netD(fake)
        errG = self.criterion(output, label)
        errG.backward()
        self.optimizerG.step()

        h = self.cfg.history
        h["D"].append(errD.item())
        h["G"].append(errG.item())
        h["D_x"].append(D_x)
        if it % self.cfg.log_every == 0:
            print(f"[{it}/{self.cfg.n_iters}] Loss_D: {errD.item():.4f} Loss_G: {errG.item():.4f} D(x): {D_x:.4f}")

    def fit(self):
        for it in range(self.cfg.n_iters):
            self.train_iter(it)
        return self.cfg.history


if __name__ == "__main__":
    torch.manual_seed(999)
    Solver(SolverConfig()).fit()
