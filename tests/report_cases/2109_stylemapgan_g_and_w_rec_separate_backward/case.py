"""StyleMapGAN-like training step: a mode-dispatching Model wrapper returns the
generator's adversarial loss and the stylecode reconstruction loss (encoder
applied to the fake image).  Tiny conv nets, random "images"."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class Mapping(nn.Module):
    def __init__(self, latent=16, ch=4, size=4):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(latent, 32), nn.LeakyReLU(0.2), nn.Linear(32, ch * size * size))
        self.ch, self.size = ch, size

    def forward(self, z):
        return self.fc(z).view(-1, self.ch, self.size, self.size)


class Generator(nn.Module):
    def __init__(self, ch=4):
        super().__init__()
        self.net = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(ch, 8, 3, 1, 1), nn.LeakyReLU(0.2),
                                 nn.Upsample(scale_factor=2), nn.Conv2d(8, 3, 3, 1, 1), nn.Tanh())

    def forward(self, stylecode):
        return self.net(stylecode)


class Encoder(nn.Module):
    def __init__(self, ch=4):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(8, ch, 3, 2, 1))

    def forward(self, img):
        return self.net(img)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 8))

    def forward(self, img):
        return self.net(img).view(-1)


class Model(nn.Module):
    def __init__(self, latent=16):
        super().__init__()
        self.latent = latent
        self.mapping, self.generator = Mapping(latent), Generator()
        self.encoder, self.discriminator = Encoder(), Discriminator()

    def forward(self, real_img, mode):
        z = torch.randn(4, self.latent)
        if mode == "G":
            stylecode = self.mapping(z)
            fake_img = self.generator(stylecode)
            adv_loss = F.softplus(-self.discriminator(fake_img))
            fake_stylecode = self.encoder(fake_img)
            w_rec_loss = F.mse_loss(stylecode, fake_stylecode, reduction="none").mean(dim=(1, 2, 3))
            return adv_loss, w_rec_loss, stylecode
        if mode == "D":
            with torch.no_grad():
                fake_img = self.generator(self.mapping(z))
            real_pred, fake_pred = self.discriminator(real_img), self.discriminator(fake_img)
            return F.softplus(-real_pred).mean() + F.softplus(fake_pred).mean()
        raise ValueError(mode)


def train(args, model, g_optim, e_optim, d_optim):
    for i in range(args.iter):
        real_img = torch.rand(4, 3, 16, 16) * 2 - 1

        d_loss = model(real_img, "D")
        d_optim.zero_grad()
        d_loss.backward()
        d_optim.step()

        adv_loss, w_rec_loss, stylecode = model(None, "G")
        adv_loss = adv_loss.mean()
        w_rec_loss = w_rec_loss.mean()
        g_loss = adv_loss * args.lambda_adv_loss

        g_optim.zero_grad()
        e_optim.zero_grad()
        g_loss.backward()
        (w_rec_loss * args.lambda_w_rec_loss).backward()
        g_optim.step()
        e_optim.step()
        print(f"iter {i}: d {d_loss.item():.3f} g {g_loss.item():.3f} w_rec {w_rec_loss.item():.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--iter", type=int, default=4)
    parser.add_argument("--lambda_adv_loss", type=float, default=1.0)
    parser.add_argument("--lambda_w_rec_loss", type=float, default=1.0)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = Model()
    g_optim = torch.optim.Adam(list(model.mapping.parameters()) + list(model.generator.parameters()), lr=2e-3)
    e_optim = torch.optim.Adam(model.encoder.parameters(), lr=2e-3)
    d_optim = torch.optim.Adam(model.discriminator.parameters(), lr=2e-3)
    train(args, model, g_optim, e_optim, d_optim)
