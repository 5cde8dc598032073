import torch
from torch import nn
from torch.nn import functional as F

from ops import MemoryEfficientSwish, drop_connect


class MBConvBlock(nn.Module):
    def __init__(self, in_ch, out_ch, expand_ratio=4, se_ratio=0.25, stride=1):
        super().__init__()
        mid = in_ch * expand_ratio
        self.id_skip = stride == 1 and in_ch == out_ch
        self._expand_conv = nn.Conv2d(in_ch, mid, 1, bias=False)
        self._bn0 = nn.BatchNorm2d(mid)
        self._depthwise_conv = nn.Conv2d(mid, mid, 3, stride=stride, padding=1, groups=mid, bias=False)
        self._bn1 = nn.BatchNorm2d(mid)
        squeezed = max(1, int(in_ch * se_ratio))
        self._se_reduce = nn.Conv2d(mid, squeezed, 1)
        self._se_expand = nn.Conv2d(squeezed, mid, 1)
        self._project_conv = nn.Conv2d(mid, out_ch, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(out_ch)
        self._swish = MemoryEfficientSwish()

    def forward(self, inputs, drop_connect_rate=None):
        x = self._swish(self._bn0(self._expand_conv(inputs)))
        x = self._swish(self._bn1(self._depthwise_conv(x)))

        x_squeezed = F.adaptive_avg_pool2d(x, 1)
        x_squeezed = self._se_expand(self._swish(self._se_reduce(x_squeezed)))
        x = torch.sigmoid(x_squeezed) * x

        x = self._bn2(self._project_conv(x))
        if self.id_skip:
            if drop_connect_rate:
                x = drop_connect(x, p=drop_connect_rate, training=self.training)
            x += inputs
        return x


class TinyEfficientNet(nn.Module):
    def __init__(self, num_classes=10, drop_connect_rate=0.2):
        super().__init__()
        self.drop_connect_rate = drop_connect_rate
        self._conv_stem = nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False)
        self._bn0 = nn.BatchNorm2d(16)
        self._blocks = nn.ModuleList([
            MBConvBlock(16, 16), MBConvBlock(16, 24, stride=2), MBConvBlock(24, 24),
        ])
        self._conv_head = nn.Conv2d(24, 64, 1, bias=False)
        self._bn1 = nn.BatchNorm2d(64)
        self._fc = nn.Linear(64, num_classes)
        self._swish = MemoryEfficientSwish()

    def forward(self, inputs):
        x = self._swish(self._bn0(self._conv_stem(inputs)))
        for idx, block in enumerate(self._blocks):
            rate = self.drop_connect_rate * idx / len(self._blocks)
            x = block(x, drop_connect_rate=rate)
        x = self._swish(self._bn1(self._conv_head(x)))
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self._fc(x)
