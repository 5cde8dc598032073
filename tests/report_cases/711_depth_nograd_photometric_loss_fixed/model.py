"""Tiny depth network built from a dict config."""
import torch
import torch.nn as nn


class DepthNet(nn.Module):
    def __init__(self, channels, min_depth=0.1, max_depth=10.0):
        super().__init__()
        layers, c_in = [], 3
        for c in channels:
            layers += [nn.Conv2d(c_in, c, 3, padding=1), nn.ELU()]
            c_in = c
        layers += [nn.Conv2d(c_in, 1, 3, padding=1), nn.Sigmoid()]
        self.net = nn.Sequential(*layers)
        self.min_depth, self.max_depth = min_depth, max_depth

    def forward(self, img):
        disp = self.net(img)
        return self.min_depth + (self.max_depth - self.min_depth) * disp


def build_model(cfg):
    return DepthNet(cfg["channels"], cfg.get("min_depth", 0.1), cfg.get("max_depth", 10.0))
