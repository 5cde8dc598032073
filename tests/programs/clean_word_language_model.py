"""PyTorch's word_language_model pattern: repackage_hidden detaches the carried state."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RNNModel(nn.Module):
    def __init__(self, ntoken=20, ninp=8, nhid=16):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid = nhid

    def forward(self, inp, hidden):
        output, hidden = self.rnn(self.encoder(inp), hidden)
        return self.decoder(output), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(1, bsz, self.nhid), weight.new_zeros(1, bsz, self.nhid))


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)


def train(model, data, bptt=5, lr=0.5):
    model.train()
    total_loss = 0.0
    hidden = model.init_hidden(data.size(1))
    for i in range(0, data.size(0) - 1, bptt):
        inp, target = data[i:i + bptt], data[i + 1:i + 1 + bptt]
        inp = inp[: target.size(0)]
        model.zero_grad()
        hidden = repackage_hidden(hidden)
        output, hidden = model(inp, hidden)
        loss = F.cross_entropy(output.view(-1, output.size(-1)), target.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total_loss += loss.item()
    return total_loss


if __name__ == "__main__":
    train(RNNModel(), torch.randint(0, 20, (40, 3)))
