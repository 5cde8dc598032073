import torch
import torch.nn as nn


class Leaky(nn.Module):
    """Leaky integrate-and-fire neuron that keeps its membrane potential
    on the module between calls (like snntorch's init_hidden=True)."""

    def __init__(self, beta=0.9, threshold=1.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold
        self.mem = None

    def reset_hidden(self):
        self.mem = None

    def forward(self, cur):
        if self.mem is None:
            self.mem = torch.zeros_like(cur)
        self.mem = self.beta * self.mem + cur
        # fast-sigmoid surrogate so the spike stays differentiable
        spk = torch.sigmoid(5.0 * (self.mem - self.threshold))
        self.mem = self.mem - spk * self.threshold
        return spk


def reset(net):
    for m in net.modules():
        if isinstance(m, Leaky):
            m.reset_hidden()
