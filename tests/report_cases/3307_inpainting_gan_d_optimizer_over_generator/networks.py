"""Gated-convolution inpainting generator and a PatchGAN discriminator."""
import torch
import torch.nn as nn


class GatedConv2d(nn.Module):
    def __init__(self, in_ch, out_ch, k=3, stride=1, padding=1, activation=True):
        super().__init__()
        self.feature = nn.Conv2d(in_ch, out_ch, k, stride, padding)
        self.gate = nn.Conv2d(in_ch, out_ch, k, stride, padding)
        self.activation = nn.LeakyReLU(0.2) if activation else nn.Identity()

    def forward(self, x):
        return self.activation(self.feature(x)) * torch.sigmoid(self.gate(x))


class GatedGenerator(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(
            GatedConv2d(4, ch), GatedConv2d(ch, ch * 2, stride=2),
            GatedConv2d(ch * 2, ch * 2, padding=2, k=5),
            nn.Upsample(scale_factor=2), GatedConv2d(ch * 2, ch),
            GatedConv2d(ch, 3, activation=False),
        )

    def forward(self, img, mask):
        x = torch.cat([img * (1 - mask), mask], 1)
        return torch.tanh(self.net(x))


class PatchDiscriminator(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(4, ch, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(ch, ch * 2, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(ch * 2, 1, 3, 1, 1),
        )

    def forward(self, img, mask):
        return self.net(torch.cat([img, mask], 1))


def create_generator(opt):
    return GatedGenerator(opt["ngf"])


def create_discriminator(opt):
    return PatchDiscriminator(opt["ndf"])
