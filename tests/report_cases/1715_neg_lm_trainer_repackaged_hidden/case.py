from dataclasses import dataclass

import torch
import torch.nn as nn

torch.manual_seed(0)


@dataclass
class LMConfig:
    vocab: int = 40
    embed_dim: int = 32
    hidden: int = 64
    layers: int = 2
    bptt: int = 20
    batch_size: int = 8
    lr: float = 2e-3
    clip: float = 0.25
    epochs: int = 2


class LSTMLanguageModel(nn.Module):
    def __init__(self, cfg: LMConfig):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab, cfg.embed_dim)
        self.rnn = nn.LSTM(cfg.embed_dim, cfg.hidden, cfg.layers, batch_first=True, dropout=0.1)
        self.proj = nn.Linear(cfg.hidden, cfg.vocab)
        self.cfg = cfg

    def init_hidden(self, batch_size):
        weight = next(self.parameters())
        return (weight.new_zeros(self.cfg.layers, batch_size, self.cfg.hidden),
                weight.new_zeros(self.cfg.layers, batch_size, self.cfg.hidden))

    def forward(self, x, hidden):
        output, hidden = self.rnn(self.embed(x), hidden)
        return self.proj(output), hidden


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def batchify(stream, batch_size):
    n = stream.size(0) // batch_size
    return stream[: n * batch_size].view(batch_size, n)


class Trainer:
    def __init__(self, model: LSTMLanguageModel, cfg: LMConfig):
        self.model = model
        self.cfg = cfg
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    def batches(self, data):
        for i in range(0, data.size(1) - 1, self.cfg.bptt):
            seq_len = min(self.cfg.bptt, data.size(1) - 1 - i)
            yield data[:, i:i + seq_len], data[:, i + 1:i + 1 + seq_len]

    def train_epoch(self, data):
        self.model.train()
        hidden = self.model.init_hidden(data.size(0))
        total, count = 0.0, 0
        for x, y in self.batches(data):
            hidden = repackage_hidden(hidden)
            logits, hidden = self.model(x, hidden)
            loss = self.criterion(logits.reshape(-1, self.cfg.vocab), y.reshape(-1))
            self.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.clip)
            self.optimizer.step()
            total += loss.item()
            count += 1
        return total / count

    def evaluate(self, data):
        self.model.eval()
        hidden = self.model.init_hidden(data.size(0))
        total, count = 0.0, 0
        with torch.no_grad():
            for x, y in self.batches(data):
                logits, hidden = self.model(x, hidden)
                total += self.criterion(logits.reshape(-1, self.cfg.vocab), y.reshape(-1)).item()
                count += 1
        return total / count


def synthetic_corpus(cfg, length):
    tokens = [0]
    for _ in range(length - 1):
        tokens.append((tokens[-1] * 7 + 3) % cfg.vocab if torch.rand(1) > 0.1 else int(torch.randint(cfg.vocab, (1,))))
    return torch.tensor(tokens)


if __name__ == '__main__':
    cfg = LMConfig()
    train_data = batchify(synthetic_corpus(cfg, 1600), cfg.batch_size)
    val_data = batchify(synthetic_corpus(cfg, 400), cfg.batch_size)
    trainer = Trainer(LSTMLanguageModel(cfg), cfg)
    for epoch in range(cfg.epochs):
        tr = trainer.train_epoch(train_data)
        va = trainer.evaluate(val_data)
        print(f'epoch {epoch}: train {tr:.3f} val {va:.3f}')
