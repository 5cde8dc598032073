import torch.nn as nn
import torch.nn.functional as F


class ResidualConvUnit(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.conv1 = nn.Conv2d(features, features, 3, padding=1)
        self.conv2 = nn.Conv2d(features, features, 3, padding=1)

    def forward(self, x):
        out = F.relu(x)
        out = self.conv1(out)
        out = F.relu(out)
        out = self.conv2(out)
        return out + x


class MultiResolutionFusion(nn.Module):
    def __init__(self, features, n_inputs):
        super().__init__()
        self.convs = nn.ModuleList([nn.Conv2d(features, features, 3, padding=1) for _ in range(n_inputs)])

    def forward(self, *xs):
        size = xs[0].shape[-2:]
        out = self.convs[0](xs[0])
        for conv, x in zip(self.convs[1:], xs[1:]):
            out = out + F.interpolate(conv(x), size=size, mode="bilinear", align_corners=False)
        return out


class ChainedResidualPool(nn.Module):
    def __init__(self, features, n_pools=2):
        super().__init__()
        self.relu = nn.ReLU()
        self.pools = nn.ModuleList([nn.MaxPool2d(5, stride=1, padding=2) for _ in range(n_pools)])
        self.convs = nn.ModuleList([nn.Conv2d(features, features, 3, padding=1, bias=False) for _ in range(n_pools)])

    def forward(self, x):
        x = self.relu(x)
        path = x
        for pool, conv in zip(self.pools, self.convs):
            path = conv(pool(path))
            x = x + path
        return x
