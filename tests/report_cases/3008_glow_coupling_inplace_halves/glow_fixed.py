"""Minimal Glow (Kingma & Dhariwal 2018): squeeze, then K flow steps of
actnorm -> invertible 1x1 conv -> affine coupling."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def split_feature(tensor, type="split"):
    C = tensor.size(1)
    if type == "split":
        return tensor[:, :C // 2, ...], tensor[:, C // 2:, ...]
    return tensor[:, 0::2, ...], tensor[:, 1::2, ...]


def squeeze2d(x, factor=2):
    B, C, H, W = x.size()
    x = x.view(B, C, H // factor, factor, W // factor, factor)
    x = x.permute(0, 1, 3, 5, 2, 4).contiguous()
    return x.view(B, C * factor * factor, H // factor, W // factor)


class ActNorm2d(nn.Module):
    def __init__(self, num_features):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(1, num_features, 1, 1))
        self.logs = nn.Parameter(torch.zeros(1, num_features, 1, 1))

    def forward(self, x, logdet):
        x = (x + self.bias) * torch.exp(self.logs)
        return x, logdet + self.logs.sum() * x.size(2) * x.size(3)


class InvertibleConv1x1(nn.Module):
    def __init__(self, num_channels):
        super().__init__()
        w_init = torch.linalg.qr(torch.randn(num_channels, num_channels))[0]
        self.weight = nn.Parameter(w_init)

    def forward(self, x, logdet):
        dlogdet = torch.slogdet(self.weight)[1] * x.size(2) * x.size(3)
        return F.conv2d(x, self.weight.view(*self.weight.shape, 1, 1)), logdet + dlogdet


class Conv2dZeros(nn.Conv2d):
    def __init__(self, in_channels, out_channels):
        super().__init__(in_channels, out_channels, 3, padding=1)
        self.weight.data.zero_()
        self.bias.data.zero_()


def f(in_channels, out_channels, hidden_channels):
    return nn.Sequential(nn.Conv2d(in_channels, hidden_channels, 3, padding=1), nn.ReLU(inplace=False),
                         nn.Conv2d(hidden_channels, hidden_channels, 1), nn.ReLU(inplace=False),
                         Conv2dZeros(hidden_channels, out_channels))


class FlowStep(nn.Module):
    def __init__(self, in_channels, hidden_channels):
        super().__init__()
        self.actnorm = ActNorm2d(in_channels)
        self.invconv = InvertibleConv1x1(in_channels)
        self.f = f(in_channels // 2, in_channels, hidden_channels)

    def forward(self, input, logdet):
        z, logdet = self.actnorm(input, logdet)
        z, logdet = self.invconv(z, logdet)
        z1, z2 = split_feature(z, "split")
        h = self.f(z1)
        shift, scale = split_feature(h, "cross")
        scale = torch.sigmoid(scale + 2.)
        z2 = z2 + shift
        z2 = z2 * scale
        logdet = torch.sum(torch.log(scale), dim=[1, 2, 3]) + logdet
        z = torch.cat((z1, z2), dim=1)
        return z, logdet


class Glow(nn.Module):
    def __init__(self, in_channels=1, hidden_channels=16, K=3):
        super().__init__()
        self.flows = nn.ModuleList(FlowStep(in_channels * 4, hidden_channels) for _ in range(K))

    def forward(self, x):
        pixels = x.size(1) * x.size(2) * x.size(3)
        z = x + torch.rand_like(x) / 256.0
        logdet = torch.zeros(x.size(0))
        logdet += float(-math.log(256.) * pixels)
        z = squeeze2d(z)
        for flow in self.flows:
            z, logdet = flow(z, logdet)
        log_pz = (-0.5 * (math.log(2 * math.pi) + z ** 2)).sum(dim=[1, 2, 3])
        objective = log_pz + logdet
        return -objective / (math.log(2.) * pixels)
