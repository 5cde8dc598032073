"""Path-aggregation FPN neck (top-down + bottom-up paths)."""
import torch.nn as nn
import torch.nn.functional as F


class ConvModule(nn.Module):
    def __init__(self, in_ch, out_ch, kernel_size, stride=1, padding=0, act_cfg=None, inplace=True):
        super().__init__()
        self.conv = nn.Conv2d(in_ch, out_ch, kernel_size, stride=stride, padding=padding)
        self.act = nn.ReLU(inplace=inplace) if act_cfg is not None else None

    def forward(self, x):
        x = self.conv(x)
        if self.act is not None:
            x = self.act(x)
        return x


class PAFPN(nn.Module):
    def __init__(self, in_channels=(8, 16, 32), out_channels=16, act_cfg=None):
        super().__init__()
        self.lateral_convs = nn.ModuleList(ConvModule(c, out_channels, 1, act_cfg=act_cfg) for c in in_channels)
        self.fpn_convs = nn.ModuleList(ConvModule(out_channels, out_channels, 3, padding=1, act_cfg=act_cfg)
                                       for _ in in_channels)
        self.downsample_convs = nn.ModuleList(
            ConvModule(out_channels, out_channels, 3, stride=2, padding=1, act_cfg=act_cfg)
            for _ in in_channels[1:])
        self.pafpn_convs = nn.ModuleList(ConvModule(out_channels, out_channels, 3, padding=1, act_cfg=act_cfg)
                                         for _ in in_channels[1:])

    def forward(self, inputs):
        laterals = [conv(inputs[i]) for i, conv in enumerate(self.lateral_convs)]
        for i in range(len(laterals) - 1, 0, -1):
            laterals[i - 1] = laterals[i - 1] + F.interpolate(laterals[i], size=laterals[i - 1].shape[2:],
                                                              mode="nearest")
        inter_outs = [self.fpn_convs[i](laterals[i]) for i in range(len(laterals))]
        for i in range(len(laterals) - 1):
            inter_outs[i + 1] = inter_outs[i + 1] + self.downsample_convs[i](inter_outs[i])
        outs = [inter_outs[0]]
        outs.extend(self.pafpn_convs[i - 1](inter_outs[i]) for i in range(1, len(laterals)))
        return tuple(outs)
