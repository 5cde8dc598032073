"""Shallow (embedding-table) link prediction: rows are renormed in place after each step."""
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


class FermiDiracDecoder(nn.Module):
    def __init__(self, r=2.0, t=1.0):
        super().__init__()
        self.r, self.t = r, t

    def forward(self, dist):
        return 1.0 / (torch.exp((dist - self.r) / self.t) + 1.0)


class ShallowLP(nn.Module):
    def __init__(self, manifold, n, dim=16):
        super().__init__()
        self.manifold = manifold
        self.emb = nn.Embedding(n, dim)
        self.proj = nn.Linear(dim, dim)
        self.dc = FermiDiracDecoder()

    def encode(self):
        return self.proj(self.emb.weight)

    def decode(self, h, idx):
        # the in-place helper runs on a private copy: nothing saved the copy yet
        h = self.manifold.normalize(h.clone())
        sqdist = self.manifold.sqdist(h[idx[:, 0]], h[idx[:, 1]])
        return self.dc(sqdist)

    def loss(self, h, pos, neg):
        p, q = self.decode(h, pos), self.decode(h, neg)
        return F.binary_cross_entropy(p, torch.ones_like(p)) + F.binary_cross_entropy(q, torch.zeros_like(q))


def train(n=60, epochs=5):
    manifold = Euclidean()
    model = ShallowLP(manifold, n)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    pos = torch.randint(0, n, (80, 2))
    for epoch in range(epochs):
        optimizer.zero_grad()
        h = model.encode()
        loss = model.loss(h, pos, torch.randint(0, n, (80, 2)))
        loss.backward()
        optimizer.step()
        with torch.no_grad():  # project the table back onto the ball
            manifold.normalize(model.emb.weight)
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
