"""Training script for the fMRI LSTM classifier (run_training_lstm.py)."""
import torch
import torch.nn as nn

from data import roi_windows
from model import FmriLSTM

CONFIG = {
    "n_roi": 16,
    "hidden_dim": 32,
    "batch_size": 8,
    "seq_len": 12,
    "epochs": 2,
    "batches_per_epoch": 4,
    "lr": 1e-3,
}


def accuracy(logits, y):
    return ((logits > 0).float() == y).float().mean().item()


def train(cfg):
    model = FmriLSTM(cfg["n_roi"], cfg["hidden_dim"], cfg["batch_size"])
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])

    for epoch in range(cfg["epochs"]):
        model.train()
        running_loss, running_acc = 0.0, 0.0
        batches = roi_windows(cfg["batches_per_epoch"], cfg["batch_size"], cfg["seq_len"],
                              cfg["n_roi"], seed=epoch)
        for step, (x, y) in enumerate(batches, start=1):
            optimizer.zero_grad()
            logits = model(x)
            loss = criterion(logits, y)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
            running_acc += accuracy(logits.detach(), y)
        print(f"epoch {epoch}: loss {running_loss / step:.4f} acc {running_acc / step:.3f}")
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    train(CONFIG)
