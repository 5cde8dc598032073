"""FactorVAE: VAE with a total-correlation discriminator (Kim & Mnih, 2018)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class FactorVAE(nn.Module):
    def __init__(self, x_dim=64, z_dim=6, hidden=128):
        super().__init__()
        self.z_dim = z_dim
        self.encode = nn.Sequential(nn.Linear(x_dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * z_dim))
        self.decode = nn.Sequential(nn.Linear(z_dim, hidden), nn.ReLU(), nn.Linear(hidden, x_dim))

    def reparametrize(self, mu, logvar):
        std = logvar.mul(0.5).exp()
        eps = torch.randn_like(std)
        return mu + std * eps

    def forward(self, x, no_dec=False):
        stats = self.encode(x)
        mu, logvar = stats[:, :self.z_dim], stats[:, self.z_dim:]
        z = self.reparametrize(mu, logvar)
        if no_dec:
            return z
        return self.decode(z), mu, logvar, z


class Discriminator(nn.Module):
    def __init__(self, z_dim=6, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(z_dim, hidden), nn.LeakyReLU(0.2, True),
            nn.Linear(hidden, hidden), nn.LeakyReLU(0.2, True),
            nn.Linear(hidden, 2),
        )

    def forward(self, z):
        return self.net(z)


def recon_loss(x, x_recon):
    return F.binary_cross_entropy_with_logits(x_recon, x, reduction="sum").div(x.size(0))


def kl_divergence(mu, logvar):
    return 0.5 * (-1 - logvar + mu.pow(2) + logvar.exp()).sum(1).mean()


def permute_dims(z):
    B, _ = z.size()
    perm_z = []
    for z_j in z.split(1, 1):
        perm = torch.randperm(B)
        perm_z.append(z_j[perm])
    return torch.cat(perm_z, 1)


class Solver:
    def __init__(self, gamma=6.4, lr_vae=1e-4, lr_d=1e-4, batch_size=32, max_iter=4):
        self.gamma = gamma
        self.batch_size = batch_size
        self.max_iter = max_iter
        self.VAE = FactorVAE()
        self.D = Discriminator()
        self.optim_VAE = optim.Adam(self.VAE.parameters(), lr=lr_vae, betas=(0.9, 0.999))
        self.optim_D = optim.Adam(self.D.parameters(), lr=lr_d, betas=(0.5, 0.9))
        self.data = (torch.rand(512, 64) > 0.5).float()

    def sample_batch(self):
        idx = torch.randint(0, self.data.size(0), (self.batch_size,))
        return self.data[idx]

    def train(self):
        ones = torch.ones(self.batch_size, dtype=torch.long)
        zeros = torch.zeros(self.batch_size, dtype=torch.long)
        for global_iter in range(1, self.max_iter + 1):
            x_true1 = self.sample_batch()
            x_recon, mu, logvar, z = self.VAE(x_true1)
            vae_recon_loss = recon_loss(x_true1, x_recon)
            vae_kld = kl_divergence(mu, logvar)

            D_z = self.D(z)
            vae_tc_loss = (D_z[:, :1] - D_z[:, 1:]).mean()

            vae_loss = vae_recon_loss + vae_kld + self.gamma * vae_tc_loss

            self.optim_VAE.zero_grad()
            vae_loss.backward()
            self.optim_VAE.step()

            x_true2 = self.sample_batch()
            z_prime = self.VAE(x_true2, no_dec=True)
            z_pperm = permute_dims(z_prime).detach()
            D_z = self.D(z.detach())
            D_z_pperm = self.D(z_pperm)
            D_tc_loss = 0.5 * (F.cross_entropy(D_z, zeros) + F.cross_entropy(D_z_pperm, ones))

            self.optim_D.zero_grad()
            D_tc_loss.backward()
            self.optim_D.step()

            print(f"[{global_iter}] vae_recon_loss:{vae_recon_loss.item():.3f} vae_kld:{vae_kld.item():.3f} "
                  f"vae_tc_loss:{vae_tc_loss.item():.3f} D_tc_loss:{D_tc_loss.item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(1)
    Solver().train()
