import torch
import torch.nn as nn


class RNN(nn.Module):
    """Shared scaffolding for the bracket-language recognisers.

    Subclasses implement build_core() and forward_core(); the embedding and the
    read-out are the same for every variant."""

    def __init__(self, vocab_size, hidden_size):
        super(RNN, self).__init__()
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.reset()

    def reset(self):
        """(Re)create all layers so every experiment starts from fresh weights."""
        self.embed = nn.Embedding(self.vocab_size, self.hidden_size)
        self.build_core()
        self.readout = nn.Linear(self.hidden_size, 1)

    def build_core(self):
        raise NotImplementedError

    def forward_core(self, x_t, state):
        raise NotImplementedError

    def forward(self, seq):
        state = self.initial_state(seq.size(0))
        for t in range(seq.size(1)):
            out, state = self.forward_core(self.embed(seq[:, t]), state)
        return self.readout(out).squeeze(-1)

    def initial_state(self, batch):
        return torch.zeros(batch, self.hidden_size)


class PlainRNN(RNN):
    def build_core(self):
        self.cell = nn.RNNCell(self.hidden_size, self.hidden_size)

    def forward_core(self, x_t, state):
        h = self.cell(x_t, state)
        return h, h


class MemoryRNN(RNN):
    def build_core(self):
        self.cell = nn.GRUCell(self.hidden_size * 2, self.hidden_size)
        self.write = nn.Linear(self.hidden_size, self.hidden_size)

    def initial_state(self, batch):
        zeros = torch.zeros(batch, self.hidden_size)
        return zeros, zeros

    def forward_core(self, x_t, state):
        h, memory = state
        h = self.cell(torch.cat([x_t, memory], dim=1), h)
        memory = torch.tanh(memory + self.write(h))
        return h, (h, memory)
