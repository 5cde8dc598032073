import torch
import torch.nn as nn


class Leaky(nn.Module):
    """LIF neuron that stores its membrane potential on the module (init_hidden style)."""

    def __init__(self, beta=0.5, threshold=1.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold
        self.mem = None

    def forward(self, cur):
        if self.mem is None:
            self.mem = torch.zeros_like(cur)
        self.mem = self.beta * self.mem + cur
        spk = torch.sigmoid(4.0 * (self.mem - self.threshold))
        self.mem = self.mem - spk * self.threshold
        return spk


def reset(net):
    """Forget all membrane potentials (and with them the old graph)."""
    for m in net.modules():
        if isinstance(m, Leaky):
            m.mem = None
    return net
