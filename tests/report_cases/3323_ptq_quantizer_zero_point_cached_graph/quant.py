"""Fake-quantisation modules for post-training quantisation."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def round_ste(x):
    return (x.round() - x).detach() + x


class UniformAffineQuantizer(nn.Module):
    def __init__(self, n_bits=4, channel_wise=False, scale_method="minmax"):
        super().__init__()
        self.n_levels = 2 ** n_bits
        self.channel_wise = channel_wise
        self.scale_method = scale_method
        self.delta = None
        self.zero_point = None
        self.inited = False

    def forward(self, x):
        if not self.inited:
            self.delta, self.zero_point = self.init_quantization_scale(x, self.channel_wise)
            self.inited = True
        x_int = round_ste(x / self.delta) + self.zero_point
        x_quant = torch.clamp(x_int, 0, self.n_levels - 1)
        return (x_quant - self.zero_point) * self.delta

    def init_quantization_scale(self, x, channel_wise=False):
        if channel_wise:
            x_min = x.amin(dim=tuple(range(1, x.dim())), keepdim=True).clamp(max=0)
            x_max = x.amax(dim=tuple(range(1, x.dim())), keepdim=True).clamp(min=0)
        else:
            x_min = x.min().clamp(max=0)
            x_max = x.max().clamp(min=0)
        if self.scale_method == "mse":
            best, best_score = None, None
            for pct in (1.0, 0.99, 0.95):
                delta = (x_max - x_min) * pct / (self.n_levels - 1)
                zp = (-x_min * pct / delta).round()
                q = (torch.clamp((x / delta).round() + zp, 0, self.n_levels - 1) - zp) * delta
                score = (q - x).pow(2).mean()
                if best_score is None or score < best_score:
                    best, best_score = (delta, zp), score
            return best
        delta = (x_max - x_min).clamp_min(1e-8) / (self.n_levels - 1)
        zero_point = (-x_min / delta).round()
        return delta, zero_point


class QuantLinear(nn.Module):
    def __init__(self, fp: nn.Linear, w_bits=4, a_bits=8):
        super().__init__()
        self.weight = nn.Parameter(fp.weight.detach().clone())
        self.bias = nn.Parameter(fp.bias.detach().clone())
        self.weight_quantizer = UniformAffineQuantizer(w_bits, channel_wise=True)
        self.act_quantizer = UniformAffineQuantizer(a_bits, scale_method="mse")
        self.use_act_quant = False

    def forward(self, x):
        if self.use_act_quant:
            x = self.act_quantizer(x)
        return F.linear(x, self.weight_quantizer(self.weight), self.bias)


class QuantModel(nn.Module):
    def __init__(self, fp_model: nn.Sequential):
        super().__init__()
        self.layers = nn.ModuleList(QuantLinear(m) if isinstance(m, nn.Linear) else m for m in fp_model)

    def set_quant_state(self, act_quant: bool):
        for m in self.layers:
            if isinstance(m, QuantLinear):
                m.use_act_quant = act_quant

    def forward(self, x):
        for m in self.layers:
            x = m(x)
        return x
