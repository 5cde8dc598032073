"""Coordinate-classification keypoint head (SimCC-style) on pooled features."""
import torch
import torch.nn as nn


class KeypointHead(nn.Module):
    def __init__(self, in_dim=24, n_kpt=3, bins_x=12, bins_y=10):
        super().__init__()
        self.n_kpt = n_kpt
        self.backbone = nn.Sequential(nn.Linear(in_dim, 48), nn.GELU())
        self.cls_x = nn.Linear(48, n_kpt * bins_x)
        self.cls_y = nn.Linear(48, n_kpt * bins_y)

    def forward(self, feats):
        h = self.backbone(feats)
        b = feats.shape[0]
        return self.cls_x(h).view(b, self.n_kpt, -1), self.cls_y(h).view(b, self.n_kpt, -1)


def build_head(cfg=None):
    cfg = cfg or {}
    return KeypointHead(**cfg)
