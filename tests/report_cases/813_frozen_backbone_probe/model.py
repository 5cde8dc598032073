"""A 'pretrained' conv feature extractor and a linear probe on top of it."""
import torch
import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1),
        )

    def forward(self, x):
        return torch.flatten(self.features(x), 1)


class LinearProbe(nn.Module):
    def __init__(self, backbone, n_classes=5):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


def build_probe(n_classes=5):
    backbone = Backbone()
    backbone.requires_grad_(False)
    backbone.eval()
    return LinearProbe(backbone, n_classes)
