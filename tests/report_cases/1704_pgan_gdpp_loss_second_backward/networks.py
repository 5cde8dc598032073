import torch
import torch.nn as nn


class DNet(nn.Module):
    def __init__(self, depthScale0, imgChannels=3):
        super().__init__()
        self.fromRGB = nn.Conv2d(imgChannels, depthScale0, 1)
        self.conv = nn.Conv2d(depthScale0, depthScale0, 3, padding=1)
        self.down = nn.AvgPool2d(2)
        self.featureLayer = nn.Linear(depthScale0 * 4 * 4, depthScale0)
        self.decisionLayer = nn.Linear(depthScale0, 1)
        self.act = nn.LeakyReLU(0.2)

    def forward(self, x, getFeature=False):
        x = self.act(self.fromRGB(x))
        x = self.down(self.act(self.conv(x)))
        x = self.act(self.featureLayer(x.flatten(1)))
        out = self.decisionLayer(x)
        if getFeature:
            return out, x
        return out


class GNet(nn.Module):
    def __init__(self, dimLatent, depthScale0, imgChannels=3):
        super().__init__()
        self.depthScale0 = depthScale0
        self.formatLayer = nn.Linear(dimLatent, depthScale0 * 4 * 4)
        self.up = nn.Upsample(scale_factor=2, mode='nearest')
        self.conv = nn.Conv2d(depthScale0, depthScale0, 3, padding=1)
        self.toRGB = nn.Conv2d(depthScale0, imgChannels, 1)
        self.act = nn.LeakyReLU(0.2)

    def forward(self, z):
        x = self.act(self.formatLayer(z)).view(z.size(0), self.depthScale0, 4, 4)
        x = self.act(self.conv(self.up(x)))
        return torch.tanh(self.toRGB(x))
