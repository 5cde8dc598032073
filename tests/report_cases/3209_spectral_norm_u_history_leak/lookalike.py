"""SN-GAN on 2-D toy data: every linear layer of the discriminator is wrapped in a spectral-norm helper."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from spectral_differentiable_sigma import SpectralNorm, graph_depth

torch.manual_seed(0)


def real_batch(n=64):
    angles = torch.rand(n) * 6.2832
    return torch.stack([torch.cos(angles), torch.sin(angles)], 1) + 0.05 * torch.randn(n, 2)


def main(steps=6):
    G = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
    D = nn.Sequential(SpectralNorm(nn.Linear(2, 32)), nn.LeakyReLU(0.2), SpectralNorm(nn.Linear(32, 1)))
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    for step in range(steps):
        fake = G(torch.randn(64, 8))
        d_loss = F.softplus(-D(real_batch())).mean() + F.softplus(D(fake.detach())).mean()
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        g_loss = F.softplus(-D(fake)).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        print(f"step {step} d {d_loss.item():.3f} g {g_loss.item():.3f} u-history length {graph_depth(D[0].u)}")


if __name__ == "__main__":
    main()
