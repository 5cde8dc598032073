import torch.nn as nn


class FaceEmbedder(nn.Module):
    """Tiny stand-in for the ResNet face backbone: image -> 32-d embedding."""

    def __init__(self, dim=32):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.PReLU(),
            nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.PReLU(),
            nn.AdaptiveAvgPool2d(2), nn.Flatten())
        self.fc = nn.Linear(64, dim)
        self.bn = nn.BatchNorm1d(dim)

    def forward(self, x):
        return self.bn(self.fc(self.features(x)))
