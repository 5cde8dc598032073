"""Tiny DCGAN-style generator/discriminator over flattened 1x16x16 images."""
import torch.nn as nn

NZ, NGF, NDF, IMG = 8, 32, 32, 16 * 16


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Linear") != -1:
        nn.init.normal_(m.weight, 0.0, 0.02)
        nn.init.zeros_(m.bias)
    elif classname.find("BatchNorm") != -1:
        nn.init.normal_(m.weight, 1.0, 0.02)
        nn.init.zeros_(m.bias)


class Generator(nn.Module):
    def __init__(self, nz=NZ, ngf=NGF):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(nz, ngf * 2), nn.BatchNorm1d(ngf * 2), nn.ReLU(True),
            nn.Linear(ngf * 2, ngf * 4), nn.BatchNorm1d(ngf * 4), nn.ReLU(True),
            nn.Linear(ngf * 4, IMG), nn.Tanh(),
        )

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self, ndf=NDF):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(IMG, ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(ndf * 2, ndf), nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(ndf, 1), nn.Sigmoid(),
        )

    def forward(self, x):
        return self.main(x).view(-1)
