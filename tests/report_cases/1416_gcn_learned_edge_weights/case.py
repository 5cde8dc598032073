"""Node classification with a GCN whose edge weights are learned jointly (edge gating)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def random_graph(num_nodes, num_edges, gen):
    row = torch.randint(0, num_nodes - 2, (num_edges,), generator=gen)
    col = torch.randint(0, num_nodes - 2, (num_edges,), generator=gen)
    # the last two nodes stay isolated
    return torch.stack([row, col])


class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_channels))

    def forward(self, x, edge_index, edge_weight):
        num_nodes = x.size(0)
        row, col = edge_index

        # symmetric normalisation D^-1/2 A D^-1/2 with weighted degrees
        deg = torch.zeros(num_nodes).index_add(0, col, edge_weight)
        deg_inv_sqrt = deg.rsqrt()
        deg_inv_sqrt = deg_inv_sqrt.masked_fill(torch.isinf(deg_inv_sqrt), 0.0)
        norm = deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]

        x = self.lin(x)
        msg = norm.unsqueeze(-1) * x[row]
        out = torch.zeros_like(x).index_add(0, col, msg)
        return out + self.bias


class EdgeGatedGCN(nn.Module):
    def __init__(self, num_edges, in_dim, hidden, n_classes):
        super().__init__()
        self.edge_logits = nn.Parameter(torch.zeros(num_edges))
        self.conv1 = GCNConv(in_dim, hidden)
        self.conv2 = GCNConv(hidden, n_classes)

    def forward(self, x, edge_index):
        edge_weight = torch.sigmoid(self.edge_logits)
        h = F.relu(self.conv1(x, edge_index, edge_weight))
        h = F.dropout(h, p=0.2, training=self.training)
        return self.conv2(h, edge_index, edge_weight)


def main():
    gen = torch.Generator().manual_seed(0)
    num_nodes, num_edges, in_dim, n_classes = 30, 80, 6, 3
    edge_index = random_graph(num_nodes, num_edges, gen)
    x = torch.randn(num_nodes, in_dim, generator=gen)
    y = torch.randint(0, n_classes, (num_nodes,), generator=gen)
    train_mask = torch.rand(num_nodes, generator=gen) < 0.6

    model = EdgeGatedGCN(num_edges, in_dim, 16, n_classes)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)

    for epoch in range(3):
        model.train()
        optimizer.zero_grad()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_mask], y[train_mask])
        loss.backward()
        optimizer.step()
        acc = (out.argmax(1) == y)[train_mask].float().mean().item()
        print(f"epoch {epoch}: loss {loss.item():.4f} train acc {acc:.3f}")


if __name__ == "__main__":
    main()
