"""Spatio-temporal GCN (STGCN-style) forecasting the next speed reading of every sensor."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_NODES = 10
N_FEAT = 2
HIDDEN = 16
T_IN = 6
BATCH = 8
EPOCHS = 3


def normalized_adjacency(n):
    a = (torch.rand(n, n) > 0.7).float()
    a = ((a + a.t()) > 0).float() + torch.eye(n)
    d_inv_sqrt = a.sum(1).pow(-0.5)
    return d_inv_sqrt[:, None] * a * d_inv_sqrt[None, :]


class GraphConv(nn.Module):
    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_ch, out_ch))
        self.bias = nn.Parameter(torch.zeros(out_ch))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, x, a_hat):
        # x: (nodes, channels)
        return a_hat @ (x @ self.weight) + self.bias


class STConvBlock(nn.Module):
    """temporal conv -> graph conv at every time step -> temporal conv"""

    def __init__(self, in_ch, hidden):
        super().__init__()
        self.temporal1 = nn.Conv2d(in_ch, hidden, kernel_size=(1, 3), padding=(0, 1))
        self.graph_conv = GraphConv(hidden, hidden)
        self.temporal2 = nn.Conv2d(hidden, hidden, kernel_size=(1, 3), padding=(0, 1))
        self.norm = nn.BatchNorm2d(hidden)

    def forward(self, x, a_hat):
        # x: (batch, channels, nodes, time)
        t = F.relu(self.temporal1(x))
        T = t.permute(0, 3, 2, 1)  # (batch, time, nodes, channels)
        for b in range(T.size(0)):
            for step in range(T.size(1)):
                T[b][step] = self.graph_conv(T[b][step], a_hat)
        t = F.relu(T.permute(0, 3, 2, 1))
        return self.norm(F.relu(self.temporal2(t)))


class STGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = STConvBlock(N_FEAT, HIDDEN)
        self.head = nn.Linear(HIDDEN * T_IN, 1)

    def forward(self, x, a_hat):
        h = self.block(x, a_hat)  # (batch, hidden, nodes, time)
        h = h.permute(0, 2, 1, 3).reshape(h.size(0), h.size(2), -1)
        return self.head(h).squeeze(-1)  # (batch, nodes)


def make_windows(n_steps=80):
    t = torch.arange(n_steps).float()
    phase = torch.rand(N_NODES, 1) * 6.28
    speed = torch.sin(t / 6 + phase) + 0.1 * torch.randn(N_NODES, n_steps)
    occupancy = torch.cos(t / 9 + phase) + 0.1 * torch.randn(N_NODES, n_steps)
    series = torch.stack([speed, occupancy])  # (feat, nodes, time)
    xs, ys = [], []
    for start in range(n_steps - T_IN - 1):
        xs.append(series[:, :, start:start + T_IN])
        ys.append(speed[:, start + T_IN])
    return torch.stack(xs), torch.stack(ys)


if __name__ == "__main__":
    a_hat = normalized_adjacency(N_NODES)
    X, Y = make_windows()
    model = STGCN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(EPOCHS):
        perm = torch.randperm(len(X))
        running = 0.0
        for i in range(0, len(X) - BATCH + 1, BATCH):
            idx = perm[i:i + BATCH]
            pred = model(X[idx], a_hat)
            loss = F.mse_loss(pred, Y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}: mse {running:.4f}")
