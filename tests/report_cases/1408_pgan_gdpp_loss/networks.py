import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, dim_latent=16, dim_out=32):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(dim_latent, 64),
            nn.LeakyReLU(0.2),
            nn.Linear(64, 64),
            nn.LeakyReLU(0.2),
            nn.Linear(64, dim_out),
            nn.Tanh(),
        )

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self, dim_in=32, dim_feat=24):
        super().__init__()
        self.features = nn.Sequential(
            nn.Linear(dim_in, 64),
            nn.LeakyReLU(0.2),
            nn.Linear(64, dim_feat),
            nn.LeakyReLU(0.2),
        )
        self.decision = nn.Linear(dim_feat, 1)

    def forward(self, x, getFeature=False):
        phi = self.features(x)
        out = self.decision(phi)
        if getFeature:
            return out, phi
        return out


def gdpp_loss(phi_fake, phi_real):
    """Determinantal point process loss on discriminator features (simplified)."""

    def kernel(phi):
        phi = nn.functional.normalize(phi, dim=1)
        return phi @ phi.t()

    k_fake = kernel(phi_fake)
    k_real = kernel(phi_real)
    eig_fake = torch.linalg.eigvalsh(k_fake)
    eig_real = torch.linalg.eigvalsh(k_real)
    return (eig_fake - eig_real).pow(2).mean() + (k_fake - k_real).abs().mean()
