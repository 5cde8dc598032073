"""Small BicycleGAN-style networks (G, E, D) for 16x16 images."""
import torch
import torch.nn as nn


class G_Unet_add_input(nn.Module):
    """Generator: concatenates the latent code z to the input image."""

    def __init__(self, input_nc=3, output_nc=3, nz=8, ngf=16):
        super().__init__()
        self.nz = nz
        self.down = nn.Sequential(
            nn.Conv2d(input_nc + nz, ngf, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(ngf, ngf * 2, 4, 2, 1), nn.InstanceNorm2d(ngf * 2), nn.LeakyReLU(0.2),
        )
        self.up = nn.Sequential(
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1), nn.InstanceNorm2d(ngf), nn.ReLU(),
            nn.ConvTranspose2d(ngf, output_nc, 4, 2, 1), nn.Tanh(),
        )

    def forward(self, x, z):
        z_img = z.view(z.size(0), z.size(1), 1, 1).expand(z.size(0), z.size(1), x.size(2), x.size(3))
        return self.up(self.down(torch.cat([x, z_img], 1)))


class E_ResNet(nn.Module):
    """Encoder producing (mu, logvar) of the latent code."""

    def __init__(self, input_nc=3, nz=8, nef=16):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(input_nc, nef, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(nef, nef * 2, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(nef * 2, nz)
        self.fcVar = nn.Linear(nef * 2, nz)

    def forward(self, x):
        h = self.conv(x).flatten(1)
        return self.fc(h), self.fcVar(h)


class D_NLayers(nn.Module):
    def __init__(self, input_nc=3, ndf=16):
        super().__init__()
        self.model = nn.Sequential(
            nn.Conv2d(input_nc, ndf, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(ndf * 2, 1, 3, 1, 1),
        )

    def forward(self, x):
        return self.model(x)


class GANLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.MSELoss()

    def forward(self, pred, target_is_real):
        target = torch.ones_like(pred) if target_is_real else torch.zeros_like(pred)
        return self.loss(pred, target)
