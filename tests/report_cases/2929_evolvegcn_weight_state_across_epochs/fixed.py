"""EvolveGCN-O on a dynamic graph: the GCN weight matrix itself is evolved by a GRU from one
snapshot to the next (weights kept as layer state, as in the recurrent EvolveGCNO layer)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_NODES, IN_CH, N_SNAP = 7, 4, 4


def gcn_norm(adj):
    a = adj + torch.eye(adj.shape[0])
    d = a.sum(1).pow(-0.5)
    return d[:, None] * a * d[None, :]


class EvolveGCNO(nn.Module):
    def __init__(self, in_channels):
        super().__init__()
        self.initial_weight = nn.Parameter(torch.randn(in_channels, in_channels) * 0.3)
        self.recurrent_layer = nn.GRU(in_channels, in_channels, num_layers=1)
        self.weight = None

    def forward(self, x, a_hat):
        if self.weight is None:
            self.weight = self.initial_weight.clone()
        W = self.weight[None, :, :]
        _, W = self.recurrent_layer(W, W)
        self.weight = W.squeeze(0)
        return a_hat @ x @ self.weight


class RecurrentGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.recurrent = EvolveGCNO(IN_CH)
        self.linear = nn.Linear(IN_CH, 1)

    def forward(self, x, a_hat):
        return self.linear(torch.relu(self.recurrent(x, a_hat)))


snapshots = []
for _ in range(N_SNAP):
    adj = (torch.rand(N_NODES, N_NODES) > 0.6).float()
    snapshots.append((torch.randn(N_NODES, IN_CH), gcn_norm(((adj + adj.t()) > 0).float()), torch.randn(N_NODES, 1)))

model = RecurrentGCN()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
model.train()
for epoch in range(3):
    model.recurrent.weight = None  # restart the weight evolution from initial_weight each epoch
    loss = 0
    for i, (x, a_hat, y) in enumerate(snapshots):
        y_hat = model(x, a_hat)
        loss = loss + torch.mean((y_hat - y) ** 2)
    loss = loss / (i + 1)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    print("epoch", epoch, "MSE", round(loss.item(), 4))
