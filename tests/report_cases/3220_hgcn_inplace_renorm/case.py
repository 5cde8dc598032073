"""Link prediction on a random graph with a 2-layer GCN and a distance decoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Euclidean:
    name = "Euclidean"

    def __init__(self, max_norm=1.0):
        self.max_norm = max_norm

    def normalize(self, p):
        # keep every embedding row inside the unit ball
        dim = p.size(-1)
        p.view(-1, dim).renorm_(2, 0, self.max_norm)
        return p

    def sqdist(self, p1, p2):
        return (p1 - p2).pow(2).sum(dim=-1)

    def proj(self, p):
        return p


class GraphConvolution(nn.Module):
    def __init__(self, in_dim, out_dim, act):
        super().__init__()
        self.linear = nn.Linear(in_dim, out_dim)
        self.act = act

    def forward(self, x, adj):
        support = self.linear(x)
        return self.act(adj @ support)


class GCNEncoder(nn.Module):
    def __init__(self, feat_dim, hidden, dim):
        super().__init__()
        self.layers = nn.ModuleList([
            GraphConvolution(feat_dim, hidden, F.relu),
            GraphConvolution(hidden, dim, F.relu),
        ])

    def forward(self, x, adj):
        for layer in self.layers:
            x = layer(x, adj)
        return x


class FermiDiracDecoder(nn.Module):
    def __init__(self, r=2.0, t=1.0):
        super().__init__()
        self.r, self.t = r, t

    def forward(self, dist):
        return 1.0 / (torch.exp((dist - self.r) / self.t) + 1.0)


class LPModel(nn.Module):
    def __init__(self, manifold, feat_dim, hidden=32, dim=16):
        super().__init__()
        self.manifold = manifold
        self.encoder = GCNEncoder(feat_dim, hidden, dim)
        self.dc = FermiDiracDecoder()

    def encode(self, x, adj):
        return self.encoder(x, adj)

    def decode(self, h, idx):
        if self.manifold.name == "Euclidean":
            h = self.manifold.normalize(h)
        emb_in = h[idx[:, 0], :]
        emb_out = h[idx[:, 1], :]
        sqdist = self.manifold.sqdist(emb_in, emb_out)
        return self.dc(sqdist)

    def compute_metrics(self, embeddings, pos_edges, neg_edges):
        pos_scores = self.decode(embeddings, pos_edges)
        neg_scores = self.decode(embeddings, neg_edges)
        loss = F.binary_cross_entropy(pos_scores, torch.ones_like(pos_scores))
        loss = loss + F.binary_cross_entropy(neg_scores, torch.zeros_like(neg_scores))
        return loss


torch.manual_seed(0)


def random_graph(n=60, feat_dim=12, p=0.08):
    a = (torch.rand(n, n) < p).float()
    a = torch.triu(a, 1)
    a = a + a.t()
    edges = a.nonzero()
    adj = a + torch.eye(n)
    deg = adj.sum(1)
    adj = adj / deg.sqrt().unsqueeze(0) / deg.sqrt().unsqueeze(1)
    return torch.randn(n, feat_dim), adj, edges


def sample_negatives(n, k):
    return torch.randint(0, n, (k, 2))


def train(epochs=5):
    x, adj, pos_edges = random_graph()
    model = LPModel(Euclidean(), feat_dim=x.size(1))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        model.train()
        optimizer.zero_grad()
        embeddings = model.encode(x, adj)
        neg_edges = sample_negatives(x.size(0), pos_edges.size(0))
        loss = model.compute_metrics(embeddings, pos_edges, neg_edges)
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
