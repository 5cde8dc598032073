# Char-RNN: the per-timestep losses are summed into one tensor and that sum
# IS backpropagated (truncated BPTT over the whole chunk); only floats are logged.
import torch
import torch.nn as nn


class CharRNN(nn.Module):
    def __init__(self, n_chars=12, hidden=24):
        super().__init__()
        self.embed = nn.Embedding(n_chars, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, n_chars)

    def forward(self, char, hidden):
        hidden = self.cell(self.embed(char), hidden)
        return self.out(hidden), hidden


def train_chunk(model, optimizer, criterion, inp, target):
    hidden = torch.zeros(inp.size(1), 24)
    optimizer.zero_grad()
    loss = 0
    for t in range(inp.size(0)):
        output, hidden = model(inp[t], hidden)
        loss += criterion(output, target[t])
    loss.backward()
    optimizer.step()
    return loss.item() / inp.size(0)


def main():
    torch.manual_seed(0)
    model = CharRNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    criterion = nn.CrossEntropyLoss()
    all_losses = []
    loss_avg = 0.0
    for epoch in range(1, 6):
        chunk = torch.randint(0, 12, (9, 4))
        loss = train_chunk(model, optimizer, criterion, chunk[:-1], chunk[1:])
        loss_avg += loss
        all_losses.append(loss)
    print("avg", loss_avg / 5, all_losses[-1])


if __name__ == "__main__":
    main()
