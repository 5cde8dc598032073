import torch
import torch.nn as nn


class DenseLayer(nn.Module):
    def __init__(self, in_ch, growth):
        super().__init__()
        self.bn = nn.BatchNorm2d(in_ch)
        self.conv = nn.Conv2d(in_ch, growth, 3, padding=1, bias=False)

    def forward(self, x):
        return torch.cat([x, self.conv(torch.relu(self.bn(x)))], dim=1)


class DenseNetLite(nn.Module):
    """Small DenseNet-style stand-in for DenseNet121 (CheXNet head: Linear + Sigmoid)."""

    def __init__(self, classCount, growth=8, nLayers=3):
        super().__init__()
        self.stem = nn.Conv2d(1, 16, 3, stride=2, padding=1)
        layers = []
        ch = 16
        for _ in range(nLayers):
            layers.append(DenseLayer(ch, growth))
            ch += growth
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Sequential(nn.Linear(ch, classCount), nn.Sigmoid())

    def forward(self, x):
        x = self.features(self.stem(x))
        x = torch.relu(x).mean(dim=(2, 3))
        return self.classifier(x)
