# Tiny backbone + FPN head for multi-class object counting (density maps).
import torch.nn as nn
import torch.nn.functional as F


def conv_relu(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=1), nn.ReLU())


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.c2 = conv_relu(3, 8, stride=2)
        self.c3 = conv_relu(8, 16, stride=2)
        self.c4 = conv_relu(16, 32, stride=2)

    def forward(self, x):
        f2 = self.c2(x)
        f3 = self.c3(f2)
        f4 = self.c4(f3)
        return [f2, f3, f4]


class FPNHead(nn.Module):
    def __init__(self, in_channels=(8, 16, 32), width=16, n_classes=3):
        super().__init__()
        # lateral ConvModule = conv + ReLU, as in mmseg-style FPN
        self.lateral_convs = nn.ModuleList([conv_relu(c, width) for c in in_channels])
        self.out_conv = nn.Conv2d(width, n_classes, 1)

    def forward(self, feats):
        laterals = [conv(f) for conv, f in zip(self.lateral_convs, feats)]
        for i in range(len(laterals) - 1, 0, -1):
            prev_shape = laterals[i - 1].shape[2:]
            laterals[i - 1] = laterals[i - 1] + F.interpolate(
                laterals[i], size=prev_shape, mode="nearest")
        return self.out_conv(laterals[0])


class CountingNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.backbone = Backbone()
        self.head = FPNHead(n_classes=n_classes)

    def forward(self, x):
        return self.head(self.backbone(x))
