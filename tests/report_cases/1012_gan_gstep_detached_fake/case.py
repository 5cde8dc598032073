import torch
import torch.nn as nn
import torch.nn.functional as F

LATENT, SPEC = 16, 64


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LATENT + 8, 64), nn.ReLU(), nn.Linear(64, SPEC), nn.Tanh())

    def forward(self, z, f):
        return self.net(torch.cat([z, f], dim=1))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(SPEC + 8, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))

    def forward(self, spec, f):
        return self.net(torch.cat([spec, f], dim=1))


class Image2ReverbLike(nn.Module):
    """Two-optimizer GAN in the Lightning `training_step(batch, batch_idx, optimizer_idx)` style."""

    def __init__(self, lr=4e-4):
        super().__init__()
        self.g = Generator()
        self.d = Discriminator()
        self.lr = lr

    def configure_optimizers(self):
        g_optim = torch.optim.Adam(self.g.parameters(), lr=self.lr, betas=(0.0, 0.99))
        d_optim = torch.optim.Adam(self.d.parameters(), lr=self.lr, betas=(0.0, 0.99))
        return [g_optim, d_optim]

    def training_step(self, batch, batch_idx, optimizer_idx):
        spec, f = batch
        z = torch.randn(spec.shape[0], LATENT)
        fake_spec = self.g(z, f)

        if optimizer_idx == 0:  # generator
            d_fake2 = self.d(fake_spec.detach(), f)
            G_loss = F.mse_loss(d_fake2, torch.ones_like(d_fake2))
            return {"loss": G_loss, "log": {"G_loss": G_loss.item()}}

        d_real = self.d(spec, f)
        d_fake = self.d(fake_spec.detach(), f)
        D_loss = 0.5 * (F.mse_loss(d_real, torch.ones_like(d_real)) + F.mse_loss(d_fake, torch.zeros_like(d_fake)))
        return {"loss": D_loss, "log": {"D_loss": D_loss.item()}}


def fit(module, loader, max_epochs=2):
    optimizers = module.configure_optimizers()
    for epoch in range(max_epochs):
        for batch_idx, batch in enumerate(loader):
            logs = {}
            for optimizer_idx, opt in enumerate(optimizers):
                out = module.training_step(batch, batch_idx, optimizer_idx)
                opt.zero_grad()
                out["loss"].backward()
                opt.step()
                logs.update(out["log"])
            print(epoch, batch_idx, {k: round(v, 4) for k, v in logs.items()})


if __name__ == "__main__":
    torch.manual_seed(0)
    loader = [(torch.rand(8, SPEC) * 2 - 1, torch.randn(8, 8)) for _ in range(3)]
    fit(Image2ReverbLike(), loader)
