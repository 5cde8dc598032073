"""Recurrent graph convolution (GConvGRU-style) on a synthetic traffic-like
temporal signal, following the pytorch_geometric_temporal recurrent examples,
with the hidden state now passed from snapshot to snapshot.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def normalized_adjacency(edge_index, edge_weight, num_nodes):
    A = torch.zeros(num_nodes, num_nodes)
    A[edge_index[0], edge_index[1]] = edge_weight
    A = A + torch.eye(num_nodes)
    d = A.sum(1).pow(-0.5)
    return d[:, None] * A * d[None, :]


class GConvGRU(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.out_channels = out_channels
        self.conv_x = nn.Linear(in_channels, 3 * out_channels)
        self.conv_h = nn.Linear(out_channels, 3 * out_channels)

    def forward(self, X, A_hat, H=None):
        if H is None:
            H = torch.zeros(X.shape[0], self.out_channels)
        gx = A_hat @ self.conv_x(X)
        gh = A_hat @ self.conv_h(H)
        zx, rx, hx = gx.chunk(3, -1)
        zh, rh, hh = gh.chunk(3, -1)
        Z = torch.sigmoid(zx + zh)
        R = torch.sigmoid(rx + rh)
        H_tilde = torch.tanh(hx + R * hh)
        return Z * H + (1 - Z) * H_tilde


class RecurrentGCN(nn.Module):
    def __init__(self, node_features, filters=16):
        super().__init__()
        self.recurrent = GConvGRU(node_features, filters)
        self.linear = nn.Linear(filters, 1)

    def forward(self, x, A_hat, H):
        H = self.recurrent(x, A_hat, H)
        return self.linear(F.relu(H)), H


def make_dataset(num_nodes=20, lags=4, T=12):
    g = torch.Generator().manual_seed(0)
    src = torch.randint(0, num_nodes, (60,), generator=g)
    dst = torch.randint(0, num_nodes, (60,), generator=g)
    edge_index = torch.stack([torch.cat([src, dst]), torch.cat([dst, src])])
    edge_weight = torch.rand(edge_index.shape[1], generator=g)
    signal = torch.sin(torch.arange(T + lags + 1).float()[None, :] * 0.3
                       + torch.rand(num_nodes, 1, generator=g) * 6)
    snapshots = [(signal[:, t:t + lags], signal[:, t + lags:t + lags + 1]) for t in range(T)]
    return normalized_adjacency(edge_index, edge_weight, num_nodes), snapshots


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--lags", type=int, default=4)
    args = parser.parse_args()
    torch.manual_seed(0)
    A_hat, train_dataset = make_dataset(lags=args.lags)
    model = RecurrentGCN(node_features=args.lags)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

    model.train()
    for epoch in range(args.epochs):
        H = None
        cost = 0
        for time, (x, y) in enumerate(train_dataset):
            y_hat, H = model(x, A_hat, H)
            cost = cost + torch.mean((y_hat - y) ** 2)
        cost = cost / (time + 1)
        cost.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"epoch {epoch}: mse {cost.item():.4f}")


if __name__ == "__main__":
    main()
