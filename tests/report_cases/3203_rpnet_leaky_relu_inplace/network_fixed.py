import torch
import torch.nn as nn


class IncResBlock(nn.Module):
    """Inception-style residual block for 1-D ECG feature maps."""

    def __init__(self, inplanes, planes, convsize=15):
        super().__init__()
        pad = convsize // 2
        self.input_conv1x1 = nn.Conv1d(inplanes, planes, kernel_size=1, bias=False)
        self.branch1 = nn.Sequential(nn.Conv1d(inplanes, planes // 2, convsize, padding=pad), nn.BatchNorm1d(planes // 2))
        self.branch2 = nn.Sequential(
            nn.Conv1d(inplanes, planes // 2, 1, bias=False), nn.BatchNorm1d(planes // 2), nn.LeakyReLU(0.2),
            nn.Conv1d(planes // 2, planes // 2, convsize + 2, padding=pad + 1), nn.BatchNorm1d(planes // 2))
        self.relu = nn.ReLU()

    def forward(self, x):
        residual = self.input_conv1x1(x)
        out = torch.cat([self.branch1(x), self.branch2(x)], 1)
        out = out + residual
        return self.relu(out)


class IncUNet(nn.Module):
    """Small 1-D U-Net that turns an ECG window into an R-peak proximity signal."""

    def __init__(self, in_channels=1, width=16):
        super().__init__()
        self.e1 = nn.Sequential(nn.Conv1d(in_channels, width, 4, stride=2, padding=1), nn.BatchNorm1d(width),
                                nn.LeakyReLU(0.2), IncResBlock(width, width))
        self.e2 = nn.Sequential(nn.LeakyReLU(0.2),
                                nn.Conv1d(width, 2 * width, 4, stride=2, padding=1), nn.BatchNorm1d(2 * width),
                                IncResBlock(2 * width, 2 * width))
        self.d1 = nn.Sequential(nn.LeakyReLU(0.2), nn.ConvTranspose1d(2 * width, width, 4, stride=2, padding=1),
                                nn.BatchNorm1d(width))
        self.out_l = nn.Sequential(nn.LeakyReLU(0.2),
                                   nn.ConvTranspose1d(2 * width, in_channels, 4, stride=2, padding=1))

    def forward(self, x):
        en1 = self.e1(x)
        en2 = self.e2(en1)
        de1 = torch.cat([en1, self.d1(en2)], 1)
        return self.out_l(de1)
