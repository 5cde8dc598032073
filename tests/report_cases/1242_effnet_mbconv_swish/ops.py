"""Activation helpers (after lukemelas/EfficientNet-PyTorch utils.py)."""
import torch
from torch import nn


class SwishImplementation(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i * torch.sigmoid(i)
        ctx.save_for_backward(i)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        i = ctx.saved_tensors[0]
        sigmoid_i = torch.sigmoid(i)
        return grad_output * (sigmoid_i * (1 + i * (1 - sigmoid_i)))


class MemoryEfficientSwish(nn.Module):
    def forward(self, x):
        return SwishImplementation.apply(x)


def drop_connect(inputs, p, training):
    if not training:
        return inputs
    keep_prob = 1 - p
    random_tensor = keep_prob + torch.rand(inputs.shape[0], 1, 1, 1, dtype=inputs.dtype)
    binary_tensor = torch.floor(random_tensor)
    return inputs / keep_prob * binary_tensor
