"""Character-level language model on a tiny corpus (notebook-style script): the text is cut into
chunks and every chunk is read from a fresh zero state."""
import torch
import torch.nn as nn

torch.manual_seed(0)

text = "the quick brown fox jumps over the lazy dog. " * 6
chars = sorted(set(text))
char_to_ix = {c: i for i, c in enumerate(chars)}
data = torch.tensor([char_to_ix[c] for c in text])
n_chars, hidden_size, seq_len = len(chars), 32, 12


class CharRNN(nn.Module):
    def __init__(self, n_chars, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.embed = nn.Embedding(n_chars, 16)
        self.rnn = nn.GRU(16, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, n_chars)

    def forward(self, x, hidden):
        output, hidden = self.rnn(self.embed(x), hidden)
        return self.out(output), hidden

    def init_hidden(self, batch_size=1):
        return torch.zeros(1, batch_size, self.hidden_size)


rnn = CharRNN(n_chars, hidden_size)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(rnn.parameters(), lr=3e-3)

for epoch in range(2):
    hidden = rnn.init_hidden()
    total = 0.0
    for start in range(0, len(data) - seq_len - 1, seq_len):
        inp = data[start:start + seq_len].unsqueeze(0)
        target = data[start + 1:start + seq_len + 1].unsqueeze(0)
        hidden = rnn.init_hidden()
        output, hidden = rnn(inp, hidden)
        loss = criterion(output.view(-1, n_chars), target.view(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total:.3f}")
