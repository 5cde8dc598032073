"""Sequence classifier trained with gradient accumulation over micro-batches."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def get_args(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--accum-steps", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-3)
    return p.parse_args(argv)


class GRUClassifier(nn.Module):
    def __init__(self, in_dim=6, hidden=16, n_cls=2):
        super().__init__()
        self.rnn = nn.GRU(in_dim, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, n_cls)

    def forward(self, x):
        _, h = self.rnn(x)
        return self.fc(h[-1])


def micro_batches(batch_size, accum_steps, seq_len=10, in_dim=6):
    """Yield one large batch as `accum_steps` micro-batches."""
    x = torch.randn(batch_size, seq_len, in_dim)
    y = (x[:, :, 0].mean(1) > 0).long()
    for xb, yb in zip(x.chunk(accum_steps), y.chunk(accum_steps)):
        yield xb, yb


def train(args):
    torch.manual_seed(0)
    model = GRUClassifier()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    history = []
    for epoch in range(args.epochs):
        running_loss = 0.0
        opt.zero_grad()
        for step in range(3):
            for xb, yb in micro_batches(args.batch_size, args.accum_steps):
                loss = F.cross_entropy(model(xb), yb) / args.accum_steps
                loss.backward()
                running_loss += loss.item()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            opt.zero_grad()
        history.append(running_loss)
        print(f"epoch {epoch}: loss {float(running_loss) / 3:.4f}")
    return history


if __name__ == "__main__":
    train(get_args([]))
