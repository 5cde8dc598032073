"""Graph actor/critic networks for multi-vehicle control: a GCN layer over the vehicle adjacency
followed by per-vehicle heads."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphEncoder(nn.Module):
    def __init__(self, feat_dim, hidden):
        super().__init__()
        self.lin_in = nn.Linear(feat_dim, hidden)
        self.gcn = nn.Linear(hidden, hidden)

    def forward(self, x, adj):
        deg = adj.sum(-1, keepdim=True).clamp_min(1)
        h = F.relu(self.lin_in(x))
        return F.relu(self.gcn((adj @ h) / deg)) + h


class GraphActor(nn.Module):
    def __init__(self, feat_dim, hidden, act_dim):
        super().__init__()
        self.encoder = GraphEncoder(feat_dim, hidden)
        self.head = nn.Linear(hidden, act_dim)

    def forward(self, x, adj):
        return torch.tanh(self.head(self.encoder(x, adj)))


class GraphCritic(nn.Module):
    def __init__(self, feat_dim, hidden, act_dim):
        super().__init__()
        self.encoder = GraphEncoder(feat_dim + act_dim, hidden)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x, adj, a):
        return self.head(self.encoder(torch.cat([x, a], -1), adj)).squeeze(-1)
