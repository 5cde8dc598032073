import torch.nn as nn


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, in_channels, out_channels, stride=1, norm='in'):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, out_channels, 3, stride=stride, padding=1)
        self.conv2 = nn.Conv2d(out_channels, out_channels, 3, padding=1)
        if norm == 'in':
            self.norm1, self.norm2 = nn.InstanceNorm2d(out_channels), nn.InstanceNorm2d(out_channels)
        else:
            self.norm1, self.norm2 = nn.BatchNorm2d(out_channels), nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = None
        if stride != 1 or in_channels != out_channels:
            self.downsample = nn.Sequential(nn.Conv2d(in_channels, out_channels, 1, stride=stride),
                                            nn.InstanceNorm2d(out_channels) if norm == 'in' else nn.BatchNorm2d(out_channels))

    def forward(self, x):
        identity = x

        out = self.conv1(x)
        out = self.norm1(out)
        out = self.relu(out)

        out = self.conv2(out)
        out = self.norm2(out)
        out = self.relu(out)

        if self.downsample is not None:
            identity = self.downsample(x)

        out += identity
        out = self.relu(out)
        return out


class ResLayer(nn.Sequential):
    def __init__(self, in_channels, out_channels, num_blocks, stride=1, norm='in'):
        layers = [BasicBlock(in_channels, out_channels, stride=stride, norm=norm)]
        for _ in range(1, num_blocks):
            layers.append(BasicBlock(out_channels, out_channels, norm=norm))
        super().__init__(*layers)
