import copy

import torch.nn as nn


class ConvNet(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.LeakyReLU(0.1), nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def create_model(num_classes, ema=False, base=None):
    model = copy.deepcopy(base) if (ema and base is not None) else ConvNet(num_classes)
    return model
