"""Graph autoencoder over small point-cloud-like graphs (3 node features): two GCN layers
reconstruct the node features, trained with MSE, module-level training loop."""
import torch
import torch.nn.functional as F

torch.manual_seed(0)


class Data:
    def __init__(self, x, edge_index):
        self.x, self.edge_index = x, edge_index

    def to(self, device):
        return Data(self.x.to(device), self.edge_index.to(device))


class GCNConv(torch.nn.Module):
    """Dense GCN layer: D^-1/2 (A + I) D^-1/2 X W."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = torch.nn.Linear(in_channels, out_channels)

    def forward(self, x, edge_index):
        n = x.shape[0]
        adj = torch.zeros(n, n)
        adj[edge_index[0], edge_index[1]] = 1.0
        adj = adj + torch.eye(n)
        d = adj.sum(1).pow(-0.5)
        return (d[:, None] * adj * d[None, :]) @ self.lin(x)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = GCNConv(3, 16)
        self.conv2 = GCNConv(16, 3)

    def forward(self, data):
        x, edge_index = data.x, data.edge_index
        x = F.relu(self.conv1(x, edge_index))
        x = self.conv2(x, edge_index)
        return x


def random_graph(n=12, k=3):
    pos = torch.randn(n, 3)
    nbrs = torch.cdist(pos, pos).topk(k + 1, largest=False).indices[:, 1:]
    src = torch.arange(n).repeat_interleave(k)
    edge_index = torch.stack([torch.cat([src, nbrs.flatten()]), torch.cat([nbrs.flatten(), src])])
    return Data(pos, edge_index)


loader = [random_graph() for _ in range(8)]
device = "cpu"
model = Net().to(device)
optimizer = torch.optim.Adam(model.parameters())

epochs = 5
for e in range(epochs):
    running_loss = 0
    for data in loader:
        data = data.to(device)
        optimizer.zero_grad()
        out = model(data)
        loss = F.mse_loss(data.x, data.x)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    print(f"epoch {e}: loss {running_loss / len(loader):.4f}")
