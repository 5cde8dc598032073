"""Character language model trained with truncated BPTT: the hidden state crosses batch
boundaries, the graph does not."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LanguageModel(nn.Module):
    def __init__(self, n_tokens, embedding_size=16, hidden_size=32, nlayers=2, dropout=0.1):
        super().__init__()
        self.nlayers, self.hidden_size = nlayers, hidden_size
        self.encoder = nn.Embedding(n_tokens, embedding_size)
        self.rnn = nn.LSTM(embedding_size, hidden_size, nlayers, dropout=dropout)
        self.decoder = nn.Linear(hidden_size, n_tokens)

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.hidden_size),
                weight.new_zeros(self.nlayers, bsz, self.hidden_size))

    def forward(self, inp, hidden):
        output, hidden = self.rnn(self.encoder(inp), hidden)
        return self.decoder(output), hidden


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous()


def get_batches(source, bptt):
    for i in range(0, source.size(0) - 1, bptt):
        seq_len = min(bptt, len(source) - 1 - i)
        yield source[i:i + seq_len], source[i + 1:i + 1 + seq_len]


def train(model, train_data, optimizer, epochs=2, bsz=4, bptt=10, clip=0.25):
    n_tokens = model.decoder.out_features
    for epoch in range(epochs):
        model.train()
        hidden = model.init_hidden(bsz)
        total_loss, batches = 0.0, 0
        for data, targets in get_batches(train_data, bptt):
            hidden = repackage_hidden(hidden)
            optimizer.zero_grad()
            output, hidden = model(data, hidden)
            loss = F.cross_entropy(output.view(-1, n_tokens), targets.reshape(-1))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            optimizer.step()
            total_loss += loss.item()
            batches += 1
        print(f"epoch {epoch} loss {total_loss / batches:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    corpus = torch.randint(0, 20, (200,))
    lm = LanguageModel(n_tokens=20)
    train(lm, batchify(corpus, 4), torch.optim.SGD(lm.parameters(), lr=1.0))
