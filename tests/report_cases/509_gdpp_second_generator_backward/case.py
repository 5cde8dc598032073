import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Discriminator(nn.Module):
    def __init__(self, dim_in=32, dim_feat=16):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(dim_in, dim_feat), nn.LeakyReLU(0.2))
        self.head = nn.Linear(dim_feat, 1)

    def forward(self, x, get_feature=False):
        phi = self.features(x)
        out = self.head(phi)
        return (out, phi) if get_feature else out


def gdpp_loss(phi_fake, phi_real):
    def eig(phi):
        phi = F.normalize(phi, p=2, dim=1)
        return torch.linalg.eigh(phi.t() @ phi)
    fake_vals, fake_vecs = eig(phi_fake)
    real_vals, real_vecs = eig(phi_real)
    real_vals = real_vals / real_vals.max()
    fake_vals = fake_vals / fake_vals.max()
    weights = 1 - real_vals
    vec_loss = -torch.sum(weights * (real_vecs * fake_vecs).sum(0).abs())
    return F.mse_loss(fake_vals, real_vals) + vec_loss / weights.sum()


class BaseGAN:
    def __init__(self, dim_latent=8, dim_out=32, gdpp=True):
        self.netG = nn.Sequential(nn.Linear(dim_latent, 32), nn.ReLU(), nn.Linear(32, dim_out))
        self.netD = Discriminator(dim_out)
        self.optG = torch.optim.Adam(self.netG.parameters(), lr=1e-3, betas=(0.0, 0.99))
        self.optD = torch.optim.Adam(self.netD.parameters(), lr=1e-3, betas=(0.0, 0.99))
        self.dim_latent, self.gdpp = dim_latent, gdpp

    def optimize_parameters(self, real):
        n = real.size(0)
        # discriminator
        self.optD.zero_grad()
        fake = self.netG(torch.randn(n, self.dim_latent)).detach()
        loss_d = F.softplus(-self.netD(real)).mean() + F.softplus(self.netD(fake)).mean()
        loss_d.backward()
        self.optD.step()
        # generator
        self.optG.zero_grad()
        pred_fake, phi_fake = self.netD(self.netG(torch.randn(n, self.dim_latent)), True)
        loss_g_fake = F.softplus(-pred_fake).mean()
        loss_g_fake.backward()
        if self.gdpp:
            with torch.no_grad():
                _, phi_real = self.netD(real, True)
            loss_g_gdpp = gdpp_loss(phi_fake, phi_real)
            loss_g_gdpp.backward()
        self.optG.step()
        return {"lossD": loss_d.item(), "lossG": loss_g_fake.item()}


if __name__ == "__main__":
    gan = BaseGAN()
    for step in range(3):
        print(step, gan.optimize_parameters(torch.randn(16, 32)))
