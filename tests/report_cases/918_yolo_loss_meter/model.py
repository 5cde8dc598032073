"""Anchor-free toy head over flattened features."""
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, feat=16, n_cls=4):
        super().__init__()
        self.stem = nn.Sequential(nn.Linear(feat, 32), nn.SiLU())
        self.branches = nn.ModuleDict({
            "cls": nn.Linear(32, n_cls),
            "box": nn.Linear(32, 4),
            "obj": nn.Linear(32, 1),
        })

    def forward(self, x):
        h = self.stem(x)
        return {k: b(h) for k, b in self.branches.items()}


def count_params(model):
    return sum(p.numel() for p in model.parameters())
