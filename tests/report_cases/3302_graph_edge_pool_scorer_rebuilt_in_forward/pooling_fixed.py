"""Node scoring / edge selection layers for an explainer-style graph pooling."""
import torch
import torch.nn as nn


def dense_adj(edge_index, num_nodes):
    adj = torch.zeros(num_nodes, num_nodes)
    adj[edge_index[0], edge_index[1]] = 1.0
    return adj + torch.eye(num_nodes)


class NodeScorePool(nn.Module):
    """Self-attention graph pooling: one-layer GCN produces a score per node."""

    def __init__(self, in_channels):
        super().__init__()
        self.score_gnn = nn.Linear(in_channels, 1)

    def forward(self, x, edge_index):
        adj = dense_adj(edge_index, x.size(0))
        deg = adj.sum(-1, keepdim=True)
        score = torch.tanh(self.score_gnn(adj @ x / deg)).squeeze(-1)
        return x * score.unsqueeze(-1), score


class EdgePooling(nn.Module):
    """Keeps the edges whose endpoints get the highest node scores."""

    def __init__(self, in_channels, ratio=0.5):
        super().__init__()
        self.ratio = ratio
        self.node_eval = NodeScorePool(in_channels)

    def forward(self, x, edge_index):
        x, node_score = self.node_eval(x, edge_index)
        edge_score = torch.sigmoid(node_score[edge_index[0]] + node_score[edge_index[1]])
        k = max(1, int(self.ratio * edge_index.size(1)))
        keep = edge_score.topk(k).indices
        return x, edge_index[:, keep], edge_score[keep]
