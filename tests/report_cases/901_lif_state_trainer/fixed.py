"""Leaky integrate-and-fire classifier trained over consecutive input windows.

The membrane potential lives on the cell so that activity carries over
from one window to the next, as in streaming spiking-network setups.
"""
import torch
import torch.nn as nn


class LIFCell(nn.Module):
    def __init__(self, n_in, n_hidden, decay=0.9):
        super().__init__()
        self.fc = nn.Linear(n_in, n_hidden)
        self.decay = decay
        self.v = None

    def detach_state(self):
        if self.v is not None:
            self.v = self.v.detach()

    def forward(self, x):
        if self.v is None:
            self.v = torch.zeros(x.shape[0], self.fc.out_features)
        self.v = self.decay * self.v + self.fc(x)
        spike = torch.sigmoid(4.0 * (self.v - 1.0))
        return spike


class SpikingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = LIFCell(8, 16)
        self.readout = nn.Linear(16, 3)

    def forward(self, window):
        rates = []
        for t in range(window.shape[1]):
            rates.append(self.cell(window[:, t]))
        return self.readout(torch.stack(rates, 1).mean(1))


class Trainer:
    def __init__(self, net, lr=1e-2):
        self.net = net
        self.opt = torch.optim.Adam(net.parameters(), lr=lr)
        self.crit = nn.CrossEntropyLoss()

    def train_step(self, window, labels):
        self.opt.zero_grad()
        self.net.cell.detach_state()
        logits = self.net(window)
        loss = self.crit(logits, labels)
        loss.backward()
        self.opt.step()
        return loss.item()

    def fit(self, stream):
        for i, (window, labels) in enumerate(stream):
            print(f"window {i} loss {self.train_step(window, labels):.4f}")


def make_stream(n, batch=4, steps=5):
    for _ in range(n):
        yield torch.randn(batch, steps, 8), torch.randint(0, 3, (batch,))


if __name__ == "__main__":
    torch.manual_seed(0)
    Trainer(SpikingNet()).fit(make_stream(4))
