import torch
import torch.nn as nn

from utils import repackage_hidden


class LMModel(nn.Module):
    """Stateful language model: the last hidden state is kept on the module
    and used as the initial state of the next chunk of text."""

    def __init__(self, vocab_sz, n_hidden, n_layers, bs):
        super().__init__()
        self.i_h = nn.Embedding(vocab_sz, n_hidden)
        self.rnn = nn.GRU(n_hidden, n_hidden, n_layers)
        self.h_o = nn.Linear(n_hidden, vocab_sz)
        self.h = torch.zeros(n_layers, bs, n_hidden)

    def forward(self, x):
        res, h = self.rnn(self.i_h(x), self.h)
        self.h = repackage_hidden(h)
        return self.h_o(res)

    def reset(self):
        self.h = torch.zeros_like(self.h)
