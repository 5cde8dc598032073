"""A character-level language model trained with truncated backpropagation through time.

Hazard: the LSTM state returned for one chunk is fed into the next chunk without
being detached, so the second chunk's backward walks into the first chunk's graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

TEXT = "the quick brown fox jumps over the lazy dog. " * 8
VOCAB = sorted(set(TEXT))
STOI = {c: i for i, c in enumerate(VOCAB)}


class CharRNN(nn.Module):
    def __init__(self, vocab_size, emb=16, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab_size)

    def forward(self, tokens, state=None):
        out, state = self.rnn(self.embed(tokens), state)
        return self.head(out), state


def train(model, data, seq_len=16, epochs=1):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(epochs):
        hidden = None
        for i in range(0, data.size(1) - seq_len - 1, seq_len):
            x = data[:, i : i + seq_len]
            y = data[:, i + 1 : i + 1 + seq_len]
            logits, hidden = model(x, hidden)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.3f}")


if __name__ == "__main__":
    data = torch.tensor([[STOI[c] for c in TEXT]])
    train(CharRNN(len(VOCAB)), data)
