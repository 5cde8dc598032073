import torch
import torch.nn as nn


class BEVDetector(nn.Module):
    """Pillar-feature MLP + BEV conv head predicting class scores and 7-DoF boxes."""

    def __init__(self, in_feat=9, channels=32, num_classes=3):
        super().__init__()
        self.pfn = nn.Sequential(nn.Linear(in_feat, channels), nn.BatchNorm1d(channels), nn.ReLU())
        self.bev = nn.Sequential(nn.Conv2d(channels, channels, 3, 1, 1), nn.BatchNorm2d(channels), nn.ReLU(),
                                 nn.Conv2d(channels, channels, 3, 1, 1), nn.ReLU())
        self.cls_head = nn.Conv2d(channels, num_classes, 1)
        self.box_head = nn.Conv2d(channels, 7, 1)

    def forward(self, pillars, grid=16):
        B, P, F = pillars.shape
        f = self.pfn(pillars.reshape(B * P, F)).reshape(B, P, -1)
        bev = f.transpose(1, 2).reshape(B, -1, grid, grid)
        h = self.bev(bev)
        return self.cls_head(h), self.box_head(h)
