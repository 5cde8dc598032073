"""Word-level LSTM language model trained with truncated BPTT (pytorch/examples word_language_model layout)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
NTOKEN, NINP, NHID, NLAYERS, BPTT, BSZ = 50, 16, 32, 2, 8, 4


class RNNModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Embedding(NTOKEN, NINP)
        self.rnn = nn.LSTM(NINP, NHID, NLAYERS)
        self.decoder = nn.Linear(NHID, NTOKEN)

    def forward(self, inp, hidden):
        emb = self.encoder(inp)
        output, hidden = self.rnn(emb, hidden)
        return self.decoder(output).view(-1, NTOKEN), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(NLAYERS, bsz, NHID),
                weight.new_zeros(NLAYERS, bsz, NHID))


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def get_batch(source, i):
    seq_len = min(BPTT, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


def evaluate(model, data_source, criterion):
    model.eval()
    total = 0.0
    hidden = model.init_hidden(BSZ)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, BPTT):
            data, targets = get_batch(data_source, i)
            output, hidden = model(data, hidden)
            hidden = repackage_hidden(hidden)
            total += len(data) * criterion(output, targets).item()
    return total / (len(data_source) - 1)


model = RNNModel()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
train_data = torch.randint(0, NTOKEN, (65, BSZ))
val_data = torch.randint(0, NTOKEN, (33, BSZ))

for epoch in range(2):
    model.train()
    total_loss = 0.0
    hidden = model.init_hidden(BSZ)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, BPTT)):
        data, targets = get_batch(train_data, i)
        # Starting each batch, we detach the hidden state from how it was previously produced.
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        optimizer.step()
        total_loss += loss.item()
    val_loss = evaluate(model, val_data, criterion)
    print(f"epoch {epoch} train {total_loss / (batch + 1):.3f} val {val_loss:.3f}")
