"""Node regression with a small graph transformer using Laplacian positional encodings."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

params = {
    "num_nodes": 30,
    "in_dim": 8,
    "hidden_dim": 32,
    "pos_enc_dim": 4,
    "n_heads": 4,
    "n_layers": 2,
    "epochs": 4,
    "lr": 1e-3,
}


def random_graph(n, p=0.2, seed=0):
    g = torch.Generator().manual_seed(seed)
    upper = (torch.rand(n, n, generator=g) < p).float().triu(1)
    adj = upper + upper.t()
    adj.fill_diagonal_(1.0)
    return adj


def laplacian_eigvecs(adj, k):
    deg = adj.sum(1)
    d_inv_sqrt = deg.pow(-0.5)
    lap = torch.eye(adj.size(0)) - d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]
    _, eigvec = torch.linalg.eigh(lap)
    return eigvec[:, 1:k + 1]


class GraphAttentionLayer(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.norm1 = nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))
        self.norm2 = nn.LayerNorm(dim)

    def forward(self, h, adj):
        n = h.size(0)
        q, k, v = self.qkv(h).view(n, 3, self.n_heads, self.head_dim).unbind(1)
        scores = torch.einsum("ihd,jhd->hij", q, k) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(adj.unsqueeze(0) == 0, float("-inf"))
        attn = F.softmax(scores, dim=-1)
        agg = torch.einsum("hij,jhd->ihd", attn, v).reshape(n, -1)
        h = self.norm1(h + self.out(agg))
        return self.norm2(h + self.ffn(h))


class GraphTransformerNet(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.embedding_h = nn.Linear(p["in_dim"], p["hidden_dim"])
        self.embedding_lap_pos_enc = nn.Linear(p["pos_enc_dim"], p["hidden_dim"])
        self.layers = nn.ModuleList([GraphAttentionLayer(p["hidden_dim"], p["n_heads"])
                                     for _ in range(p["n_layers"])])
        self.readout = nn.Linear(p["hidden_dim"], 1)

    def forward(self, adj, x, pos_emb):
        h = self.embedding_h(x) + pos_emb
        for layer in self.layers:
            h = layer(h, adj)
        return self.readout(h).squeeze(-1)


def train():
    torch.manual_seed(0)
    adj = random_graph(params["num_nodes"])
    x = torch.randn(params["num_nodes"], params["in_dim"])
    y = torch.randn(params["num_nodes"])
    lap_pe = laplacian_eigvecs(adj, params["pos_enc_dim"])

    model = GraphTransformerNet(params)
    optimizer = torch.optim.Adam(model.parameters(), lr=params["lr"])
    criterion = nn.MSELoss()

    for epoch in range(params["epochs"]):
        model.train()
        pos_emb = model.embedding_lap_pos_enc(lap_pe)
        out = model(adj, x, pos_emb)
        loss = criterion(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch #{epoch}, loss: {loss.item():.4f}")


if __name__ == "__main__":
    train()
