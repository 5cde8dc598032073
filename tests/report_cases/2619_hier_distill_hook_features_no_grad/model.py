import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDetector(nn.Module):
    def __init__(self, width, n_out=6):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.ReLU())
        self.stage1 = nn.Sequential(nn.Conv2d(width, width, 3, stride=2, padding=1), nn.ReLU())
        self.stage2 = nn.Sequential(nn.Conv2d(width, width * 2, 3, stride=2, padding=1), nn.ReLU())
        self.head = nn.Conv2d(width * 2, n_out, 1)

    def forward(self, x):
        return self.head(self.stage2(self.stage1(self.stem(x))))


class FeatureHookCache:
    """Forward hooks that keep the latest output of the named stages."""

    def __init__(self, model, names):
        self.feats = {}
        self.handles = [getattr(model, n).register_forward_hook(self._make_hook(n)) for n in names]

    def _make_hook(self, name):
        def hook(module, inputs, output):
            self.feats[name] = output
        return hook

    def clear(self):
        self.feats.clear()


class FeatureAdaptors(nn.Module):
    """1x1 convs mapping student stage widths to teacher stage widths."""

    def __init__(self, s_widths, t_widths):
        super().__init__()
        self.convs = nn.ModuleDict({k: nn.Conv2d(s_widths[k], t_widths[k], 1) for k in s_widths})

    def forward(self, name, f):
        return self.convs[name](f)


def detection_loss(pred, target):
    return F.mse_loss(pred, target)
