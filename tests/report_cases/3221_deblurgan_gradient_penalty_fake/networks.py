import torch
import torch.nn as nn


class ResnetGenerator(nn.Module):
    def __init__(self, ch=3, ngf=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(ch, ngf, 3, padding=1), nn.InstanceNorm2d(ngf), nn.ReLU(),
            nn.Conv2d(ngf, ngf, 3, padding=1), nn.InstanceNorm2d(ngf), nn.ReLU(),
            nn.Conv2d(ngf, ch, 3, padding=1), nn.Tanh())

    def forward(self, x):
        # learn the residual between blurred and sharp image
        return torch.clamp(x + self.body(x), -1, 1)


class NLayerDiscriminator(nn.Module):
    def __init__(self, ch=6, ndf=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(ch, ndf, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(ndf, ndf * 2, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(ndf * 2, 1, 3, padding=1))

    def forward(self, x):
        return self.net(x)


def frozen_feature_net(ch=3):
    net = nn.Sequential(nn.Conv2d(ch, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
    for p in net.parameters():
        p.requires_grad_(False)
    return net.eval()
