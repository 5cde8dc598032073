"""Encoder / generator / discriminator training with a stylecode reconstruction loss."""
import argparse

import torch
from torch import nn
from torch.nn import functional as F


class Encoder(nn.Module):
    def __init__(self, ch=3, code=8):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(ch, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(16, code, 3, stride=2, padding=1),
        )

    def forward(self, x):
        return self.net(x)


class Generator(nn.Module):
    def __init__(self, ch=3, code=8):
        super().__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose2d(code, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.ConvTranspose2d(16, ch, 4, stride=2, padding=1), nn.Tanh(),
        )

    def forward(self, stylecode):
        return self.net(stylecode)


class Discriminator(nn.Module):
    def __init__(self, ch=3):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(ch, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(16, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Flatten(), nn.Linear(16 * 4 * 4, 1),
        )

    def forward(self, x):
        return self.net(x)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.generator = Generator()
        self.discriminator = Discriminator()

    def forward(self, real_img, mode):
        if mode == "G":
            stylecode = self.encoder(real_img)
            fake_img = self.generator(stylecode)
            fake_pred = self.discriminator(fake_img)
            adv_loss = F.softplus(-fake_pred).mean()
            fake_stylecode = self.encoder(fake_img)
            w_rec_loss = F.mse_loss(stylecode, fake_stylecode)
            return adv_loss, w_rec_loss, stylecode
        if mode == "D":
            with torch.no_grad():
                fake_img = self.generator(self.encoder(real_img))
            real_pred = self.discriminator(real_img)
            fake_pred = self.discriminator(fake_img)
            return F.softplus(-real_pred).mean() + F.softplus(fake_pred).mean()
        raise ValueError(mode)


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--iter", type=int, default=3)
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--lambda_adv_loss", type=float, default=1.0)
    p.add_argument("--lambda_w_rec_loss", type=float, default=1.0)
    return p.parse_args([])


def train(args, model, g_optim, d_optim):
    for i in range(args.iter):
        real_img = torch.rand(args.batch, 3, 16, 16) * 2 - 1

        d_loss = model(real_img, "D")
        d_optim.zero_grad()
        d_loss.backward()
        d_optim.step()

        adv_loss, w_rec_loss, stylecode = model(real_img, "G")
        adv_loss = adv_loss.mean()
        w_rec_loss = w_rec_loss.mean()
        g_loss = adv_loss * args.lambda_adv_loss

        g_optim.zero_grad()
        g_loss.backward()
        (w_rec_loss * args.lambda_w_rec_loss).backward()
        g_optim.step()

        print(f"iter {i}: d {d_loss.item():.3f} g {g_loss.item():.3f} w_rec {w_rec_loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    args = parse()
    model = Model()
    g_optim = torch.optim.Adam(
        list(model.generator.parameters()) + list(model.encoder.parameters()), lr=args.lr, betas=(0.0, 0.99)
    )
    d_optim = torch.optim.Adam(model.discriminator.parameters(), lr=args.lr, betas=(0.0, 0.99))
    train(args, model, g_optim, d_optim)
