"""FactorVAE solver: VAE + total-correlation discriminator on toy vectors."""
from argparse import Namespace

import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, x_dim=10, z_dim=3):
        super().__init__()
        self.encode = nn.Sequential(nn.Linear(x_dim, 32), nn.ReLU(), nn.Linear(32, 2 * z_dim))
        self.decode = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, x_dim))

    def forward(self, x, no_dec=False):
        mu, logvar = self.encode(x).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        if no_dec:
            return z.squeeze()
        return self.decode(z), mu, logvar, z.squeeze()


def permute_dims(z):
    return torch.stack([col[torch.randperm(z.size(0))] for col in z.t()], dim=1)


class Solver:
    def __init__(self, args):
        self.args = args
        self.VAE = VAE(args.x_dim, args.z_dim)
        self.D = nn.Sequential(nn.Linear(args.z_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 2))
        self.optim_VAE = torch.optim.Adam(self.VAE.parameters(), lr=args.lr_VAE)
        self.optim_D = torch.optim.Adam(self.D.parameters(), lr=args.lr_D)

    def train(self, data):
        ones = torch.ones(self.args.batch_size, dtype=torch.long)
        zeros = torch.zeros(self.args.batch_size, dtype=torch.long)
        for it in range(self.args.max_iter):
            x_true1, x_true2 = data[torch.randperm(len(data))[:2 * self.args.batch_size]].chunk(2)
            x_recon, mu, logvar, z = self.VAE(x_true1)
            vae_recon_loss = F.mse_loss(x_recon, x_true1, reduction="sum") / self.args.batch_size
            vae_kld = -0.5 * (1 + logvar - mu ** 2 - logvar.exp()).sum(1).mean()
            D_z = self.D(z)
            vae_tc_loss = (D_z[:, :1] - D_z[:, 1:]).mean()
            vae_loss = vae_recon_loss + vae_kld + self.args.gamma * vae_tc_loss
            self.optim_VAE.zero_grad()
            vae_loss.backward()
            self.optim_VAE.step()

            z_prime = self.VAE(x_true2, no_dec=True)
            z_pperm = permute_dims(z_prime).detach()
            D_z_pperm = self.D(z_pperm)
            D_tc_loss = 0.5 * (F.cross_entropy(self.D(z.detach()), zeros) + F.cross_entropy(D_z_pperm, ones))
            self.optim_D.zero_grad()
            D_tc_loss.backward()
            self.optim_D.step()
            print(it, round(vae_loss.item(), 3), round(D_tc_loss.item(), 3))


if __name__ == "__main__":
    torch.manual_seed(0)
    args = Namespace(x_dim=10, z_dim=3, batch_size=8, lr_VAE=1e-4, lr_D=1e-4, gamma=6.4, max_iter=3)
    Solver(args).train(torch.randn(64, args.x_dim))
