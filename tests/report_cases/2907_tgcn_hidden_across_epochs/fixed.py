"""Temporal GCN (T-GCN) for traffic-speed forecasting on a small road graph: a GRU whose
gates are graph convolutions, unrolled over the snapshots of a day."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_NODES, N_FEAT, HIDDEN, N_SNAPSHOTS = 6, 2, 8, 5


def normalized_adjacency(n):
    a = (torch.rand(n, n) > 0.6).float()
    a = ((a + a.t()) > 0).float() + torch.eye(n)
    d = a.sum(1).pow(-0.5)
    return d[:, None] * a * d[None, :]


class GraphConv(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout)

    def forward(self, x, a_hat):
        return a_hat @ self.lin(x)


class TGCNCell(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv_z = GraphConv(in_channels + out_channels, out_channels)
        self.conv_r = GraphConv(in_channels + out_channels, out_channels)
        self.conv_h = GraphConv(in_channels + out_channels, out_channels)

    def forward(self, x, a_hat, h):
        z = torch.sigmoid(self.conv_z(torch.cat([x, h], 1), a_hat))
        r = torch.sigmoid(self.conv_r(torch.cat([x, h], 1), a_hat))
        h_tilde = torch.tanh(self.conv_h(torch.cat([x, h * r], 1), a_hat))
        return z * h + (1 - z) * h_tilde


class RecurrentGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.recurrent = TGCNCell(N_FEAT, HIDDEN)
        self.linear = nn.Linear(HIDDEN, 1)

    def forward(self, x, a_hat, prev_hidden_state):
        h = self.recurrent(x, a_hat, prev_hidden_state)
        y = self.linear(torch.relu(h))
        return y, h


a_hat = normalized_adjacency(N_NODES)
snapshots = [(torch.randn(N_NODES, N_FEAT), torch.randn(N_NODES, 1)) for _ in range(N_SNAPSHOTS)]
model = RecurrentGCN()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

for epoch in range(3):
    h = torch.zeros(N_NODES, HIDDEN)  # each epoch replays the day from an empty state
    cost = 0
    for time, (x, y) in enumerate(snapshots):
        y_hat, h = model(x, a_hat, h)
        cost = cost + torch.mean((y_hat - y) ** 2)
    cost = cost / (time + 1)
    cost.backward()
    optimizer.step()
    optimizer.zero_grad()
    print("epoch", epoch, "MSE", round(cost.item(), 4))
