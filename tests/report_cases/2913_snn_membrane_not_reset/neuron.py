import torch
import torch.nn as nn


class ATanSurrogate(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha=2.0):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return (x >= 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return grad_output * ctx.alpha / 2 / (1 + (torch.pi / 2 * ctx.alpha * x) ** 2), None


class LIFNode(nn.Module):
    """Leaky integrate-and-fire neuron with a stateful membrane potential self.v."""

    def __init__(self, tau=2.0, v_threshold=1.0, v_reset=0.0):
        super().__init__()
        self.tau, self.v_threshold, self.v_reset = tau, v_threshold, v_reset
        self.v = v_reset

    def forward(self, x):
        self.v = self.v + (x - (self.v - self.v_reset)) / self.tau
        spike = ATanSurrogate.apply(self.v - self.v_threshold)
        self.v = self.v * (1 - spike) + self.v_reset * spike
        return spike

    def reset(self):
        self.v = self.v_reset


def reset_net(net):
    for m in net.modules():
        if hasattr(m, "reset"):
            m.reset()
