import torch
import torch.nn as nn
import torch.nn.functional as F

E4M3_MAX = 448.0


def fake_quant(x, scale):
    # simulate an e4m3 cast: scale into range, round, scale back (straight-through)
    y = torch.clamp(x * scale, -E4M3_MAX, E4M3_MAX)
    y = y + (torch.round(y) - y).detach()
    return y / scale


class Fp8Linear(nn.Module):
    """Linear layer with delayed scaling: the scale comes from an amax history."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features) * 0.1)
        self.bias = nn.Parameter(torch.zeros(out_features))
        self.register_buffer("amax_history", torch.zeros(4))

    def update_amax(self, x):
        amax = torch.maximum(x.abs().max(), self.weight.abs().max())
        self.amax_history = torch.cat([self.amax_history[1:], amax.reshape(1)])
        return E4M3_MAX / self.amax_history.max().clamp(min=1e-12)

    def forward(self, x):
        scale = self.update_amax(x)
        return F.linear(fake_quant(x, scale), fake_quant(self.weight, scale), self.bias)
