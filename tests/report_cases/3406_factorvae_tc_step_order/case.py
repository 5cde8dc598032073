"""FactorVAE on synthetic 'shapes' vectors: a VAE plus a total-correlation
discriminator trained adversarially on permuted latent codes."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

X_DIM, Z_DIM = 32, 6


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(X_DIM, 64), nn.ReLU(), nn.Linear(64, 2 * Z_DIM))
        self.dec = nn.Sequential(nn.Linear(Z_DIM, 64), nn.ReLU(), nn.Linear(64, X_DIM))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar, z


class TCDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(Z_DIM, 64), nn.LeakyReLU(0.2), nn.Linear(64, 64),
                                 nn.LeakyReLU(0.2), nn.Linear(64, 2))

    def forward(self, z):
        return self.net(z)


def permute_dims(z):
    perm = torch.stack([torch.randperm(z.size(0)) for _ in range(z.size(1))], dim=1)
    return torch.gather(z, 0, perm)


class FactorVAETrainer:
    def __init__(self, gamma=6.0):
        self.vae = VAE()
        self.D = TCDiscriminator()
        self.optim_vae = torch.optim.Adam(self.vae.parameters(), lr=1e-3)
        self.optim_D = torch.optim.Adam(self.D.parameters(), lr=1e-4, betas=(0.5, 0.9))
        self.gamma = gamma

    def step(self, x_true1, x_true2):
        ones = torch.ones(x_true1.size(0), dtype=torch.long)
        zeros = torch.zeros(x_true1.size(0), dtype=torch.long)

        x_recon, mu, logvar, z = self.vae(x_true1)
        recon_loss = F.binary_cross_entropy_with_logits(x_recon, x_true1, reduction="sum") / x_true1.size(0)
        kld = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(1).mean()
        D_z = self.D(z)
        vae_tc_loss = (D_z[:, 0] - D_z[:, 1]).mean()
        vae_loss = recon_loss + kld + self.gamma * vae_tc_loss

        self.optim_vae.zero_grad()
        vae_loss.backward(retain_graph=True)
        self.optim_vae.step()

        with torch.no_grad():
            z_prime = self.vae(x_true2)[3]
        z_pperm = permute_dims(z_prime)
        D_z_pperm = self.D(z_pperm)
        D_tc_loss = 0.5 * (F.cross_entropy(D_z, zeros) + F.cross_entropy(D_z_pperm, ones))

        self.optim_D.zero_grad()
        D_tc_loss.backward()
        self.optim_D.step()
        return vae_loss.item(), D_tc_loss.item()


def make_data(n=512):
    factors = torch.rand(n, 4)
    basis = torch.randn(4, X_DIM)
    return torch.sigmoid(3 * factors @ basis)


def main():
    data = make_data()
    trainer = FactorVAETrainer()
    for it in range(20):
        idx1, idx2 = torch.randint(0, len(data), (2, 64))
        vae_loss, d_loss = trainer.step(data[idx1], data[idx2])
        if it % 5 == 0:
            print(f"iter {it}: vae {vae_loss:.2f}  D_tc {d_loss:.3f}")


if __name__ == "__main__":
    main()
