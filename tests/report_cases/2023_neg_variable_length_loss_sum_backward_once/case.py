"""Sequence tagger trained on variable-length sequences: the per-sequence losses of a batch are
summed in a Python loop and backpropagated once per batch."""
import random

import torch
import torch.nn as nn

random.seed(3)
torch.manual_seed(3)

N_TAGS = 4
tagger = nn.LSTM(input_size=6, hidden_size=12, batch_first=True)
proj = nn.Linear(12, N_TAGS)
criteria = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(list(tagger.parameters()) + list(proj.parameters()), lr=5e-3)


def make_batch(n):
    batch = []
    for _ in range(n):
        length = random.randint(3, 9)
        x = torch.randn(1, length, 6)
        y = (x[0, :, 0] > 0).long() + 2 * (x[0, :, 1] > 0).long()
        batch.append((x, y))
    return batch


epoch_losses = []
for epoch in range(3):
    running = 0.0
    for step in range(3):
        batch = make_batch(4)
        optimizer.zero_grad()
        loss = 0
        for seq_i, tags_i in batch:
            out, _ = tagger(seq_i)
            loss_part = criteria(proj(out[0]), tags_i)
            loss += loss_part
        loss = loss / len(batch)
        loss.backward()
        optimizer.step()
        running += loss.item()
    epoch_losses.append(running / 3)
    print('epoch', epoch, 'loss %.4f' % epoch_losses[-1])
