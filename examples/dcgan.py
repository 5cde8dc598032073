"""A small DCGAN on random 8x8 images.

Hazard: the discriminator step uses the generator's output without `.detach()`, so
its backward frees the generator's graph; the generator step then backpropagates
through that freed graph.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

NZ = 8


def make_generator():
    return nn.Sequential(nn.ConvTranspose2d(NZ, 16, 4, 1, 0), nn.BatchNorm2d(16), nn.ReLU(True),
                         nn.ConvTranspose2d(16, 1, 4, 2, 1), nn.Tanh())


def make_discriminator():
    return nn.Sequential(nn.Conv2d(1, 8, 4, 2, 1), nn.LeakyReLU(0.2),
                         nn.Conv2d(8, 1, 4, 1, 0), nn.Sigmoid(), nn.Flatten(0))


def train(steps=3, batch=6):
    netG, netD = make_generator(), make_discriminator()
    criterion = nn.BCELoss()
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    real_label, fake_label = torch.ones(batch), torch.zeros(batch)
    for step in range(steps):
        real = torch.rand(batch, 1, 8, 8) * 2 - 1
        fake = netG(torch.randn(batch, NZ, 1, 1))

        # discriminator step
        optD.zero_grad()
        errD = criterion(netD(real), real_label) + criterion(netD(fake), fake_label)
        errD.backward()
        optD.step()

        # generator step
        optG.zero_grad()
        errG = criterion(netD(fake), real_label)
        errG.backward()
        optG.step()
        print(f"step {step}: D {errD.item():.3f}  G {errG.item():.3f}")


if __name__ == "__main__":
    train()
