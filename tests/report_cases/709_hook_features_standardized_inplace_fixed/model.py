"""Backbone whose intermediate activations are captured with forward hooks."""
import torch
import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self, in_dim=8, hidden=16, n_cls=3, momentum=0.1):
        super().__init__()
        self.block1 = nn.Sequential(nn.Linear(in_dim, hidden), nn.Tanh())
        self.block2 = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh())
        self.head = nn.Linear(hidden, n_cls)
        self.momentum = momentum
        self.register_buffer("feat_mean", torch.zeros(hidden))
        self.register_buffer("feat_var", torch.ones(hidden))
        self.features = {}
        for name in ("block1", "block2"):
            getattr(self, name).register_forward_hook(self._save_hook(name))

    def _save_hook(self, name):
        def hook(module, inputs, output):
            self.features[name] = output
            if name == "block1" and self.training:
                with torch.no_grad():
                    m = self.momentum
                    self.feat_mean.mul_(1 - m).add_(m * output.mean(0))
                    self.feat_var.mul_(1 - m).add_(m * output.var(0))
        return hook

    def forward(self, x):
        return self.head(self.block2(self.block1(x)))
