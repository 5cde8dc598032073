"""Stateful sequence model that keeps its GRU hidden state across consecutive batches of one stream."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class StatefulGRU(nn.Module):
    def __init__(self, vocab=30, emb=12, hid=24):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.gru = nn.GRU(emb, hid, batch_first=True)
        self.fc = nn.Linear(hid, vocab)
        self.hidden = None

    def reset_state(self):
        self.hidden = None

    def forward(self, tokens):
        out, hidden = self.gru(self.embed(tokens), self.hidden)
        self.hidden = hidden.detach()
        return self.fc(out)


model = StatefulGRU()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
stream = torch.randint(0, 30, (4, 61))
seq_len = 10

for epoch in range(2):
    model.reset_state()
    total = 0.0
    for i in range(0, stream.size(1) - 1, seq_len):
        x, y = stream[:, i:i + seq_len], stream[:, i + 1:i + 1 + seq_len]
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, 30), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(epoch, total)
