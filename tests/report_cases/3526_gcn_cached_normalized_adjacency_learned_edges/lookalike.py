"""Transductive node classification with a 2-layer GCN on a synthetic
community graph.  Edge weights are fixed (a gate on the first edge feature);
the GCN layers cache the symmetrically normalised adjacency because the graph
is the same in every epoch (full-batch training)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, N_CLS, FEAT = 60, 3, 8


class GCNConv(nn.Module):
    def __init__(self, cin, cout, cached=True):
        super().__init__()
        self.lin = nn.Linear(cin, cout)
        self.cached, self._cached_adj = cached, None

    def normalize(self, edge_index, edge_weight):
        adj = torch.zeros(N, N).index_put((edge_index[0], edge_index[1]), edge_weight, accumulate=True)
        adj = adj + torch.eye(N)
        d = adj.sum(1).pow(-0.5)
        return d[:, None] * adj * d[None, :]

    def forward(self, x, edge_index, edge_weight):
        if self.cached and self._cached_adj is not None:
            adj = self._cached_adj
        else:
            adj = self.normalize(edge_index, edge_weight)
            if self.cached:
                self._cached_adj = adj
        return adj @ self.lin(x)


class EdgeWeightedGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = GCNConv(FEAT, 32), GCNConv(32, N_CLS)

    def forward(self, x, edge_index, edge_attr):
        w = torch.sigmoid(4 * edge_attr[:, 0])          # constant, no parameters involved
        h = F.relu(self.conv1(x, edge_index, w))
        return self.conv2(F.dropout(h, 0.3, self.training), edge_index, w)


def community_graph():
    y = torch.arange(N) % N_CLS
    src, dst = torch.randint(0, N, (2, 400))
    keep = (y[src] == y[dst]) | (torch.rand(400) < 0.15)
    edge_index = torch.stack([src[keep], dst[keep]])
    same = (y[edge_index[0]] == y[edge_index[1]]).float()
    edge_attr = torch.stack([same + 0.3 * torch.randn_like(same), torch.rand_like(same)], 1)   # noisy edge features
    x = F.one_hot(y, N_CLS).float() @ torch.randn(N_CLS, FEAT) + 0.8 * torch.randn(N, FEAT)
    return x, edge_index, edge_attr, y


def main():
    x, edge_index, edge_attr, y = community_graph()
    train_mask = torch.rand(N) < 0.5
    model = EdgeWeightedGCN()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
    for epoch in range(10):
        model.train()
        out = model(x, edge_index, edge_attr)
        loss = F.cross_entropy(out[train_mask], y[train_mask])
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc = (out.argmax(1)[~train_mask] == y[~train_mask]).float().mean()
        print(f"epoch {epoch} loss {loss.item():.4f} test acc {acc:.2f}")


if __name__ == "__main__":
    main()
