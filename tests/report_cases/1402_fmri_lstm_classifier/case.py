import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from model import fMRI_LSTM


def get_args():
    parser = argparse.ArgumentParser(description="LSTM on synthetic rs-fMRI windows")
    parser.add_argument("--n_subjects", type=int, default=24)
    parser.add_argument("--window", type=int, default=12)
    parser.add_argument("--n_rois", type=int, default=10)
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--batch_size", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-3)
    return parser.parse_args([])


def make_loader(args):
    x = torch.randn(args.n_subjects, args.window, args.n_rois)
    y = torch.randint(0, 2, (args.n_subjects,)).float()
    return DataLoader(TensorDataset(x, y), batch_size=args.batch_size, shuffle=True, drop_last=True)


def train(args):
    torch.manual_seed(0)
    loader = make_loader(args)
    model = fMRI_LSTM(args.n_rois, args.hidden, args.batch_size)
    criterion = nn.BCELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        total, correct, epoch_loss = 0, 0, 0.0
        for data, label in loader:
            optimizer.zero_grad()
            output = model(data)
            loss = criterion(output, label)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
            correct += ((output > 0.5).float() == label).sum().item()
            total += label.size(0)
        print(f"epoch {epoch} loss {epoch_loss / len(loader):.4f} acc {correct / total:.3f}")


if __name__ == "__main__":
    train(get_args())
