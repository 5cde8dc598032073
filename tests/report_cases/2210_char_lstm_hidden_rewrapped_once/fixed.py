import sys

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)

raw = ("that which we call a rose by any other name would smell as sweet "
       "so romeo would were he not romeo call'd retain that dear perfection ") * 8
vocab = sorted(set(raw))
word2index = {c: i for i, c in enumerate(vocab)}
indices = np.array([word2index[c] for c in raw])

batch_size = 8
bptt = 16
n_batches = int(indices.shape[0] / batch_size)
trimmed = indices[:n_batches * batch_size]
batched_indices = trimmed.reshape(batch_size, n_batches).transpose()
input_batched_indices = batched_indices[0:-1]
target_batched_indices = batched_indices[1:]
n_bptt = int((n_batches - 1) / bptt)
input_batches = input_batched_indices[:n_bptt * bptt].reshape(n_bptt, bptt, batch_size)
target_batches = target_batched_indices[:n_bptt * bptt].reshape(n_bptt, bptt, batch_size)


class LSTMCell(nn.Module):
    def __init__(self, n_inputs, n_hidden, n_output):
        super().__init__()
        self.n_hidden = n_hidden
        self.xf, self.xi, self.xo, self.xc = (nn.Linear(n_inputs, n_hidden) for _ in range(4))
        self.hf, self.hi, self.ho, self.hc = (nn.Linear(n_hidden, n_hidden, bias=False) for _ in range(4))
        self.w_ho = nn.Linear(n_hidden, n_output, bias=False)

    def forward(self, input, hidden):
        prev_hidden, prev_cell = hidden
        f = torch.sigmoid(self.xf(input) + self.hf(prev_hidden))
        i = torch.sigmoid(self.xi(input) + self.hi(prev_hidden))
        o = torch.sigmoid(self.xo(input) + self.ho(prev_hidden))
        g = torch.tanh(self.xc(input) + self.hc(prev_hidden))
        c = (f * prev_cell) + (i * g)
        h = o * torch.tanh(c)
        output = self.w_ho(h)
        return output, (h, c)

    def init_hidden(self, batch_size=1):
        return torch.zeros(batch_size, self.n_hidden), torch.zeros(batch_size, self.n_hidden)


embed = nn.Embedding(len(vocab), 32)
model = LSTMCell(n_inputs=32, n_hidden=64, n_output=len(vocab))
model.w_ho.weight.data *= 0
criterion = nn.CrossEntropyLoss()
optim = torch.optim.SGD(list(model.parameters()) + list(embed.parameters()), lr=0.05)


def train(iterations=3):
    hidden = model.init_hidden(batch_size=batch_size)
    for iter in range(iterations):
        total_loss = 0
        n_loss = 0
        for batch_i in range(len(input_batches)):
            # re-wrap the carried state before every segment: keep its values, drop its history
            hidden = (hidden[0].data.requires_grad_(), hidden[1].data.requires_grad_())
            losses = list()
            for t in range(bptt):
                input = embed(torch.as_tensor(input_batches[batch_i][t]))
                output, hidden = model.forward(input=input, hidden=hidden)
                target = torch.as_tensor(target_batches[batch_i][t])
                losses.append(criterion(output, target))
            loss = losses[-1]
            for l in losses[:-1]:
                loss = loss + l
            loss = loss / bptt
            loss.backward()
            optim.step()
            optim.zero_grad()
            total_loss += loss.item()
            n_loss += 1
        sys.stdout.write("\r Iter:" + str(iter) + " - Perplexity:" + str(np.exp(total_loss / n_loss)) + "\n")


if __name__ == "__main__":
    train()
