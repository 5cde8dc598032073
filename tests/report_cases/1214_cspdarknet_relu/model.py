"""A cut-down CSPDarknet backbone with a dense prediction head."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Mish(nn.Module):
    def forward(self, x):
        return x * torch.tanh(F.softplus(x))


ACTIVATIONS = {
    "mish": Mish,
    "relu": nn.ReLU,
    "leaky": lambda: nn.LeakyReLU(0.1),
    "linear": nn.Identity,
}


class Convolutional(nn.Module):
    def __init__(self, filters_in, filters_out, kernel_size, stride=1, norm="bn", activate="mish"):
        super().__init__()
        self.conv = nn.Conv2d(filters_in, filters_out, kernel_size, stride, kernel_size // 2, bias=norm is None)
        self.norm = nn.BatchNorm2d(filters_out) if norm == "bn" else nn.Identity()
        self.activate = ACTIVATIONS[activate]()

    def forward(self, x):
        return self.activate(self.norm(self.conv(x)))


class CSPResidualBlock(nn.Module):
    def __init__(self, in_channels, out_channels, hidden_channels=None, residual_activation="linear",
                 activate="mish"):
        super().__init__()
        hidden_channels = hidden_channels or out_channels
        self.block = nn.Sequential(
            Convolutional(in_channels, hidden_channels, 1, activate=activate),
            Convolutional(hidden_channels, out_channels, 3, activate=activate),
        )
        self.activation = ACTIVATIONS[residual_activation]()

    def forward(self, x):
        residual = x
        out = self.block(x)
        out += residual
        return self.activation(out)


class CSPStage(nn.Module):
    def __init__(self, in_channels, out_channels, num_blocks, activate="mish"):
        super().__init__()
        self.downsample = Convolutional(in_channels, out_channels, 3, stride=2, activate=activate)
        self.split_conv0 = Convolutional(out_channels, out_channels // 2, 1, activate=activate)
        self.split_conv1 = Convolutional(out_channels, out_channels // 2, 1, activate=activate)
        self.blocks = nn.Sequential(*[CSPResidualBlock(out_channels // 2, out_channels // 2, activate=activate)
                                      for _ in range(num_blocks)])
        self.concat_conv = Convolutional(out_channels, out_channels, 1, activate=activate)

    def forward(self, x):
        x = self.downsample(x)
        x0 = self.split_conv0(x)
        x1 = self.blocks(self.split_conv1(x))
        return self.concat_conv(torch.cat([x0, x1], dim=1))


class CSPDarknetTiny(nn.Module):
    def __init__(self, stem_channels=8, stage_channels=(16, 32), num_blocks=(1, 2), activate="mish"):
        super().__init__()
        self.stem = Convolutional(3, stem_channels, 3, activate=activate)
        stages = []
        in_ch = stem_channels
        for out_ch, nb in zip(stage_channels, num_blocks):
            stages.append(CSPStage(in_ch, out_ch, nb, activate=activate))
            in_ch = out_ch
        self.stages = nn.Sequential(*stages)
        self.out_channels = in_ch

    def forward(self, x):
        return self.stages(self.stem(x))


class DenseHead(nn.Module):
    def __init__(self, in_channels, num_anchors=3, num_classes=4):
        super().__init__()
        self.pred = nn.Conv2d(in_channels, num_anchors * (5 + num_classes), 1)

    def forward(self, feats):
        return self.pred(feats)


def build_detector(cfg):
    backbone = CSPDarknetTiny(activate=cfg["activate"])
    head = DenseHead(backbone.out_channels, cfg["num_anchors"], cfg["num_classes"])
    return nn.Sequential(backbone, head)
