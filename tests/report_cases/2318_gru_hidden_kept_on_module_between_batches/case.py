"""Stateful GRU forecaster for a long multivariate series.

Following the workaround suggested for DataParallel (keep the hidden state
inside the module instead of passing it in and out of forward), the model
stores `self.hn` and continues from it on the next window.
"""
import argparse

import torch
import torch.nn as nn


class StatefulGRU(nn.Module):
    def __init__(self, n_features, hidden_size=12, num_layers=3, batch_size=64):
        super().__init__()
        self.gru = nn.GRU(n_features, hidden_size, num_layers, batch_first=True)
        self.head = nn.Linear(hidden_size, n_features)
        self.num_layers, self.hidden_size, self.batch_size = num_layers, hidden_size, batch_size
        self.reset_hidden()

    def reset_hidden(self):
        self.hn = torch.zeros(self.num_layers, self.batch_size, self.hidden_size)

    def forward(self, input):
        output, hn = self.gru(input, self.hn)
        self.hn = hn
        return self.head(output)


def make_series(batch_size, total_len, n_features):
    t = torch.arange(total_len).float()
    phase = torch.rand(batch_size, 1, n_features) * 6.28
    freq = 0.05 + 0.05 * torch.rand(batch_size, 1, n_features)
    return torch.sin(t.view(1, -1, 1) * freq + phase) + 0.05 * torch.randn(batch_size, total_len, n_features)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--window", type=int, default=20)
    parser.add_argument("--batch_size", type=int, default=64)
    parser.add_argument("--n_features", type=int, default=4)
    args = parser.parse_args()

    torch.manual_seed(0)
    series = make_series(args.batch_size, 201, args.n_features)
    model = StatefulGRU(args.n_features, batch_size=args.batch_size)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    criterion = nn.MSELoss()
    for epoch in range(args.epochs):
        model.reset_hidden()
        losses = []
        for start in range(0, series.shape[1] - 1 - args.window + 1, args.window):
            x = series[:, start:start + args.window]
            y = series[:, start + 1:start + args.window + 1]
            pred = model(x)
            loss = criterion(pred, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        print(f"epoch {epoch}: mse {sum(losses) / len(losses):.4f}")


if __name__ == "__main__":
    main()
