"""Spiking network in the style of norse: a LIFCell returns (spikes, state) and
is driven over time with `out, s = model(x_t, s)`; the state starts as None
for every batch and one backward runs after the whole sequence."""
from typing import NamedTuple, Optional

import torch
import torch.nn as nn


class SuperSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v, alpha):
        ctx.save_for_backward(v)
        ctx.alpha = alpha
        return (v > 0).to(v.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        (v,) = ctx.saved_tensors
        return grad_output / (ctx.alpha * v.abs() + 1.0) ** 2, None


class LIFState(NamedTuple):
    v: torch.Tensor
    i: torch.Tensor


class LIFCell(nn.Module):
    def __init__(self, input_size, hidden_size, tau_mem=0.9, tau_syn=0.8, v_th=1.0):
        super().__init__()
        self.input_weights = nn.Parameter(torch.randn(hidden_size, input_size) * 0.5)
        self.hidden_size = hidden_size
        self.tau_mem, self.tau_syn, self.v_th = tau_mem, tau_syn, v_th

    def forward(self, x, state: Optional[LIFState] = None):
        if state is None:
            zeros = torch.zeros(x.shape[0], self.hidden_size)
            state = LIFState(v=zeros, i=zeros)
        i = self.tau_syn * state.i + x @ self.input_weights.t()
        v = self.tau_mem * state.v + i
        z = SuperSpike.apply(v - self.v_th, 100.0)
        v = v * (1 - z)                     # reset
        return z, LIFState(v=v, i=i)


class SNN(nn.Module):
    def __init__(self, n_in=12, n_hidden=24, n_out=3):
        super().__init__()
        self.lif = LIFCell(n_in, n_hidden)
        self.readout = nn.Linear(n_hidden, n_out)

    def forward(self, spikes_in):
        # spikes_in: [T, B, n_in]
        s = None
        voltages = []
        for x_t in spikes_in:
            z, s = self.lif(x_t, s)
            voltages.append(self.readout(z))
        return torch.stack(voltages).max(dim=0).values


def encode(rates, steps):
    return (torch.rand(steps, *rates.shape) < rates).float()


def main():
    torch.manual_seed(0)
    model = SNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for batch in range(4):
        labels = torch.randint(0, 3, (8,))
        rates = torch.full((8, 12), 0.1)
        rates[torch.arange(8), labels * 4] = 0.9
        out = model(encode(rates, steps=20))
        loss = nn.functional.cross_entropy(out, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"batch {batch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
