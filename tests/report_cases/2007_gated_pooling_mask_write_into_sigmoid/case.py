"""Review classifier with sigmoid-gated pooling over word vectors; padded positions get gate 0."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0
VOCAB = 50


class GatedPoolClassifier(nn.Module):
    def __init__(self, vocab_size, emb_dim=16, hid=16, n_classes=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=PAD)
        self.encoder = nn.GRU(emb_dim, hid, batch_first=True)
        self.gate = nn.Linear(hid, 1)
        self.out = nn.Linear(hid, n_classes)

    def forward(self, tokens):
        mask = tokens.eq(PAD)                              # B x T
        states, _ = self.encoder(self.embedding(tokens))  # B x T x H
        gates = torch.sigmoid(self.gate(states)).squeeze(-1)
        gates[mask] = 0.0
        pooled = (gates.unsqueeze(-1) * states).sum(1) / gates.sum(1, keepdim=True).clamp_min(1e-6)
        return self.out(pooled)


def make_batch(batch_size=4, max_len=7):
    seqs, labels = [], []
    for _ in range(batch_size):
        n = random.randint(3, max_len)
        seq = [random.randint(1, VOCAB - 1) for _ in range(n)] + [PAD] * (max_len - n)
        seqs.append(seq)
        labels.append(int(sum(seq) % 2))
    return torch.tensor(seqs), torch.tensor(labels)


def main():
    random.seed(0)
    torch.manual_seed(0)
    model = GatedPoolClassifier(VOCAB)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    history = []
    for step in range(5):
        tokens, labels = make_batch()
        logits = model(tokens)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(loss.item())
    print('losses:', ['%.3f' % l for l in history])


if __name__ == '__main__':
    main()
