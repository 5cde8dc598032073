"""Vid-ODE style continuous-time video extrapolation: conv encoder, latent ODE
(fixed-step Euler), conv decoder, plus image and sequence discriminators."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, ch, z):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(ch, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, z, 3, 2, 1))

    def forward(self, x):
        return self.net(x)


class Decoder(nn.Module):
    def __init__(self, ch, z):
        super().__init__()
        self.net = nn.Sequential(nn.ConvTranspose2d(z, 16, 4, 2, 1), nn.ReLU(),
                                 nn.ConvTranspose2d(16, ch, 4, 2, 1), nn.Tanh())

    def forward(self, h):
        return self.net(h)


class ODEFunc(nn.Module):
    def __init__(self, z):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(z, z, 3, 1, 1), nn.Tanh(), nn.Conv2d(z, z, 3, 1, 1))

    def forward(self, h):
        return self.net(h)


class VidODE(nn.Module):
    def __init__(self, ch=1, z=8, euler_steps=3):
        super().__init__()
        self.encoder, self.decoder, self.ode_func = Encoder(ch, z), Decoder(ch, z), ODEFunc(z)
        self.euler_steps = euler_steps

    def forward(self, observed, n_future, dt=0.1):
        h = self.encoder(observed[:, -1])
        preds = []
        for _ in range(n_future):
            for _ in range(self.euler_steps):
                h = h + dt / self.euler_steps * self.ode_func(h)
            preds.append(self.decoder(h))
        return torch.stack(preds, 1)


class ImageDiscriminator(nn.Module):
    def __init__(self, ch=1):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(ch, 16, 4, 2, 1), nn.LeakyReLU(0.2), nn.Flatten(), nn.LazyLinear(1))

    def forward(self, frames):  # (B, T, C, H, W)
        return self.net(frames.flatten(0, 1))


class SeqDiscriminator(nn.Module):
    def __init__(self, ch=1, T=4):
        super().__init__()
        self.net = nn.Sequential(nn.Conv3d(ch, 8, 3, 1, 1), nn.LeakyReLU(0.2), nn.Flatten(), nn.LazyLinear(1))

    def forward(self, frames):
        return self.net(frames.transpose(1, 2))


def gan_loss(pred, is_real):
    target = torch.ones_like(pred) if is_real else torch.zeros_like(pred)
    return F.binary_cross_entropy_with_logits(pred, target)


def compute_all_losses(model, netD_img, netD_seq, observed, future, lamb_adv):
    pred = model(observed, future.shape[1])
    loss_recon = F.l1_loss(pred, future)
    # generator adversarial terms (pred not detached)
    loss_adv = gan_loss(netD_img(pred), True) + gan_loss(netD_seq(pred), True)
    loss_netG = loss_recon + lamb_adv * loss_adv
    # discriminator terms
    fake = pred.detach()
    loss_netD = 0.5 * (gan_loss(netD_img(future), True) + gan_loss(netD_img(fake), False)
                       + gan_loss(netD_seq(future), True) + gan_loss(netD_seq(fake), False))
    return loss_netG, loss_netD


def train(args):
    torch.manual_seed(0)
    model = VidODE()
    netD_img, netD_seq = ImageDiscriminator(), SeqDiscriminator()
    netD_img(torch.zeros(1, 1, 1, 16, 16)); netD_seq(torch.zeros(1, args.n_future, 1, 16, 16))
    optimizer_netG = torch.optim.Adam(model.parameters(), lr=args.lr)
    optimizer_netD = torch.optim.Adam(list(netD_img.parameters()) + list(netD_seq.parameters()), lr=args.lr)
    for it in range(args.iters):
        video = torch.tanh(torch.randn(args.batch, args.n_obs + args.n_future, 1, 16, 16).cumsum(1) * 0.2)
        observed, future = video[:, :args.n_obs], video[:, args.n_obs:]
        loss_netG, loss_netD = compute_all_losses(model, netD_img, netD_seq, observed, future, args.lamb_adv)

        # Train G first: its adversarial terms go through the discriminators'
        # current weights, which must not be stepped before this backward
        optimizer_netG.zero_grad()
        loss_netG.backward()
        optimizer_netG.step()

        # Train D (its loss only sees detached fakes, so G's step is harmless)
        optimizer_netD.zero_grad()
        loss_netD.backward()
        optimizer_netD.step()
        print(f"iter {it} G {loss_netG.item():.4f} D {loss_netD.item():.4f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--n_obs", type=int, default=3)
    parser.add_argument("--n_future", type=int, default=4)
    parser.add_argument("--iters", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--lamb_adv", type=float, default=0.003)
    train(parser.parse_args())


if __name__ == "__main__":
    main()
