"""Encoder/generator update of a style-map autoencoder GAN: adversarial + latent reconstruction."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Args:
    img_dim: int = 48
    latent_dim: int = 16
    batch: int = 8
    iters: int = 4
    lr: float = 2e-3
    lambda_adv_loss: float = 1.0
    lambda_w_rec_loss: float = 1.0


def mlp(*dims, last_act=None):
    layers = []
    for i, (a, b) in enumerate(zip(dims[:-1], dims[1:])):
        layers.append(nn.Linear(a, b))
        if i < len(dims) - 2:
            layers.append(nn.LeakyReLU(0.2))
    if last_act is not None:
        layers.append(last_act)
    return nn.Sequential(*layers)


class Model(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.encoder = mlp(args.img_dim, 64, args.latent_dim)
        self.generator = mlp(args.latent_dim, 64, args.img_dim, last_act=nn.Tanh())
        self.discriminator = mlp(args.img_dim, 64, 1)

    def forward(self, real_img, mode):
        match mode:
            case "G":
                stylecode = self.encoder(real_img)
                fake_img = self.generator(stylecode)
                adv_loss = F.softplus(-self.discriminator(fake_img)).mean()
                w_rec_loss = F.mse_loss(self.encoder(fake_img), stylecode)
                return adv_loss, w_rec_loss, stylecode
            case "D":
                with torch.no_grad():
                    fake_img = self.generator(self.encoder(real_img))
                real_pred = self.discriminator(real_img)
                fake_pred = self.discriminator(fake_img)
                return F.softplus(-real_pred).mean() + F.softplus(fake_pred).mean()
            case _:
                raise ValueError(f"unknown mode {mode!r}")


def sample_data(args):
    while True:
        yield torch.rand(args.batch, args.img_dim) * 2 - 1


def train(args):
    model = Model(args)
    g_optim = torch.optim.Adam(
        [*model.encoder.parameters(), *model.generator.parameters()], lr=args.lr, betas=(0.0, 0.99))
    d_optim = torch.optim.Adam(model.discriminator.parameters(), lr=args.lr, betas=(0.0, 0.99))
    loader = sample_data(args)

    for i in range(args.iters):
        real_img = next(loader)

        d_loss = model(real_img, "D")
        d_optim.zero_grad()
        d_loss.backward()
        d_optim.step()

        adv_loss, w_rec_loss, stylecode = model(real_img, "G")
        g_optim.zero_grad()
        g_w_rec_loss = adv_loss * args.lambda_adv_loss + w_rec_loss * args.lambda_w_rec_loss
        g_w_rec_loss.backward()
        g_optim.step()

        print(f"[{i}] d {d_loss.item():.3f} adv {adv_loss.item():.3f} w_rec {w_rec_loss.item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(Args())
