from dataclasses import dataclass

import torch
import torch.nn as nn

from data import make_subjects, windows
from model import FMRILSTM


@dataclass
class Config:
    hidden_dim: int = 16
    batch_size: int = 8
    window: int = 10
    epochs: int = 2
    lr: float = 1e-3


def run_training(cfg: Config):
    x, y = make_subjects()
    model = FMRILSTM(input_dim=x.shape[-1], hidden_dim=cfg.hidden_dim, batch_size=cfg.batch_size)
    criterion = nn.BCELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        epoch_loss, n_batches = 0.0, 0
        for xb, yb in windows(x, y, cfg.batch_size, cfg.window):
            optimizer.zero_grad()
            # carry the state into the next window, but not its history
            model.hidden = tuple(h.detach() for h in model.hidden)
            pred = model(xb)
            loss = criterion(pred, yb)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
            n_batches += 1
        print(f"epoch {epoch}: loss {epoch_loss / max(n_batches, 1):.4f}")


if __name__ == "__main__":
    run_training(Config())
