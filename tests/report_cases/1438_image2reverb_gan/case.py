"""Conditional GAN mapping image features to reverb spectrograms (Lightning-style module, manual loop)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d_img=24, d_feat=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_img, 32), nn.ReLU(), nn.Linear(32, d_feat))

    def forward(self, img):
        return self.net(img)


class SpecGenerator(nn.Module):
    def __init__(self, d_feat=16, d_z=8, d_spec=40):
        super().__init__()
        self.d_z = d_z
        self.net = nn.Sequential(nn.Linear(d_feat + d_z, 64), nn.LeakyReLU(0.2), nn.Linear(64, d_spec), nn.Tanh())

    def forward(self, f):
        z = torch.randn(f.size(0), self.d_z)
        return self.net(torch.cat([f, z], 1))


class SpecDiscriminator(nn.Module):
    """Judges a spectrogram given the conditioning image."""

    def __init__(self, d_spec=40, d_img=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_spec + d_img, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))

    def forward(self, spec, img):
        return self.net(torch.cat([spec, img], 1))


class Image2Reverb(nn.Module):
    def __init__(self, lr=4e-4):
        super().__init__()
        self.lr = lr
        self.enc = Encoder()
        self.g = SpecGenerator()
        self.d = SpecDiscriminator()

    def configure_optimizers(self):
        g_optim = torch.optim.Adam(list(self.enc.parameters()) + list(self.g.parameters()), lr=self.lr, betas=(0.0, 0.99))
        d_optim = torch.optim.Adam(self.d.parameters(), lr=self.lr, betas=(0.0, 0.99))
        return [g_optim, d_optim]

    def training_step(self, batch, batch_idx, optimizer_idx):
        spec, img = batch
        f = self.enc(img)
        fake_spec = self.g(f)

        if optimizer_idx == 0:  # generator
            d_fake2 = self.d(fake_spec, img)
            G_loss = F.mse_loss(d_fake2, torch.ones_like(d_fake2))
            return G_loss

        # discriminator
        d_real = self.d(spec, img)
        d_fake = self.d(fake_spec.detach(), img)
        D_loss = 0.5 * (F.mse_loss(d_real, torch.ones_like(d_real)) + F.mse_loss(d_fake, torch.zeros_like(d_fake)))
        return D_loss


def fit(model, n_batches=3, batch_size=8):
    optimizers = model.configure_optimizers()
    for batch_idx in range(n_batches):
        batch = (torch.rand(batch_size, 40) * 2 - 1, torch.randn(batch_size, 24))
        logs = {}
        for optimizer_idx, opt in enumerate(optimizers):
            opt.zero_grad()
            loss = model.training_step(batch, batch_idx, optimizer_idx)
            loss.backward()
            opt.step()
            logs["G" if optimizer_idx == 0 else "D"] = round(loss.item(), 4)
        print(batch_idx, logs)


if __name__ == "__main__":
    torch.manual_seed(0)
    fit(Image2Reverb())
