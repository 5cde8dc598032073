import torch.nn as nn


class SSCNet(nn.Module):
    """Toy semantic scene completion net on a 2-D 'BEV' grid."""

    def __init__(self, in_ch=4, n_classes=5):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(in_ch, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.cls = nn.Conv2d(16, n_classes, 1)

    def forward(self, x):
        return self.cls(self.enc(x))
