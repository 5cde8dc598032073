import torch
import torch.nn as nn
import torch.nn.functional as F

from v2.res_layer import ResLayer


class BasicEncoder(nn.Module):
    def __init__(self, out_channels=32, norm='in'):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 7, stride=2, padding=3)
        self.norm1 = nn.InstanceNorm2d(16) if norm == 'in' else nn.BatchNorm2d(16)
        self.relu = nn.ReLU(inplace=True)
        self.layer1 = ResLayer(16, 16, 2, stride=1, norm=norm)
        self.layer2 = ResLayer(16, 24, 2, stride=2, norm=norm)
        self.conv2 = nn.Conv2d(24, out_channels, 1)

    def forward(self, x):
        x = self.relu(self.norm1(self.conv1(x)))
        x = self.layer2(self.layer1(x))
        return self.conv2(x)


class RAFTLite(nn.Module):
    def __init__(self, iters=3):
        super().__init__()
        self.iters = iters
        self.fnet = BasicEncoder(32, norm='in')
        self.cnet = BasicEncoder(32, norm='bn')
        self.update = nn.Sequential(nn.Conv2d(32 + 1 + 2, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 2, 3, padding=1))

    def forward(self, img1, img2):
        f1, f2 = self.fnet(img1), self.fnet(img2)
        ctx = torch.tanh(self.cnet(img1))
        B, C, H, W = f1.shape
        flow = torch.zeros(B, 2, H, W)
        preds = []
        for _ in range(self.iters):
            corr = (f1 * f2).sum(1, keepdim=True) / C ** 0.5
            flow = flow + self.update(torch.cat([ctx, corr, flow], dim=1))
            preds.append(F.interpolate(flow, scale_factor=4, mode='bilinear', align_corners=False) * 4)
        return preds
