"""Activation layers shared across the tabular models."""
import torch
import torch.nn as nn


class SwishFunction(torch.autograd.Function):
    """Swish with a hand-written backward (avoids keeping the sigmoid buffer)."""

    @staticmethod
    def forward(ctx, i):
        result = i * torch.sigmoid(i)
        ctx.save_for_backward(result, i)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, i = ctx.saved_tensors
        sigmoid_i = torch.sigmoid(i)
        return grad_output * (result + sigmoid_i * (1 - result))


class MemoryEfficientSwish(nn.Module):
    def forward(self, x):
        return SwishFunction.apply(x)


def get_activation(name):
    if name == "swish":
        return MemoryEfficientSwish()
    if name == "gelu":
        return nn.GELU()
    return nn.ReLU()
