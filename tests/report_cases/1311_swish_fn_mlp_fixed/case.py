"""Residual MLP regressor for tabular data."""
import argparse
import math

import torch
import torch.nn as nn

from layers import get_activation


class ResidualMLPBlock(nn.Module):
    def __init__(self, dim, expansion=2, act="swish", dropout=0.1, layer_scale=0.1):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, dim * expansion)
        self.act = get_activation(act)
        self.drop = nn.Dropout(dropout, inplace=True)
        self.fc2 = nn.Linear(dim * expansion, dim)
        self.gamma = nn.Parameter(torch.full((dim,), layer_scale))

    def forward(self, x):
        h = self.drop(self.act(self.fc1(self.norm(x))))
        return x + self.gamma * self.fc2(h)


class TabularRegressor(nn.Module):
    def __init__(self, in_features, width, depth, act):
        super().__init__()
        self.inp = nn.Linear(in_features, width)
        self.blocks = nn.ModuleList([ResidualMLPBlock(width, act=act) for _ in range(depth)])
        self.head = nn.Sequential(nn.LayerNorm(width), nn.Linear(width, 1))

    def forward(self, x):
        x = self.inp(x)
        for blk in self.blocks:
            x = blk(x)
        return self.head(x).squeeze(-1)


def parse():
    ap = argparse.ArgumentParser()
    ap.add_argument("--features", type=int, default=10)
    ap.add_argument("--width", type=int, default=16)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--act", default="swish")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--epochs", type=int, default=3)
    return ap.parse_args()


def main():
    args = parse()
    torch.manual_seed(7)
    X = torch.randn(64, args.features)
    y = X[:, 0] * 2.0 - X[:, 1] + 0.1 * torch.randn(64)
    model = TabularRegressor(args.features, args.width, args.depth, args.act)
    optim = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(optim, T_max=args.epochs)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(X.size(0))
        running = []
        for idx in perm.split(32):
            pred = model(X[idx])
            loss = nn.functional.mse_loss(pred, y[idx])
            optim.zero_grad(set_to_none=True)
            loss.backward()
            optim.step()
            running.append(loss.item())
        sched.step()
        print(f"epoch {epoch}: rmse={math.sqrt(sum(running) / len(running)):.4f}")


if __name__ == "__main__":
    main()
