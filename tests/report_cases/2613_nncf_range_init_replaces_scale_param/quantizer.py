import torch
import torch.nn as nn


class QuantizeSymmetric(torch.autograd.Function):
    """Fake quantisation with a straight-through estimator for the input and a gradient for scale."""

    @staticmethod
    def forward(ctx, x, scale, levels):
        s = scale.abs() + 1e-6
        q = torch.clamp(torch.round(x / s * (levels // 2)), -(levels // 2), levels // 2 - 1)
        ctx.save_for_backward(x, s)
        ctx.levels = levels
        return q * s / (levels // 2)

    @staticmethod
    def backward(ctx, grad_out):
        x, s = ctx.saved_tensors
        inside = (x.abs() <= s).to(grad_out.dtype)
        grad_x = grad_out * inside
        grad_scale = (grad_out * (1 - inside) * torch.sign(x)).sum().view_as(s)
        return grad_x, grad_scale, None


class SymmetricQuantizer(nn.Module):
    def __init__(self, bits=4):
        super().__init__()
        self.levels = 2 ** bits
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        return QuantizeSymmetric.apply(x, self.scale, self.levels)


def quantizer_parameters(model):
    return [m.scale for m in model.modules() if isinstance(m, SymmetricQuantizer)]
