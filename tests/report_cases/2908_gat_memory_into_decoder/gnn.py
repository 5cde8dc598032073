import torch
import torch.nn as nn
import torch.nn.functional as F


class DenseGATLayer(nn.Module):
    """Single-head graph attention over a dense adjacency mask."""

    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout, bias=False)
        self.att_src = nn.Parameter(torch.randn(cout) * 0.1)
        self.att_dst = nn.Parameter(torch.randn(cout) * 0.1)

    def forward(self, x, adj):
        h = self.lin(x)
        scores = (h @ self.att_src)[:, None] + (h @ self.att_dst)[None, :]
        scores = F.leaky_relu(scores, 0.2).masked_fill(adj == 0, float("-inf"))
        return torch.softmax(scores, dim=1) @ h


class GAT(nn.Module):
    def __init__(self, in_channels, hidden_channels, out_channels):
        super().__init__()
        self.conv1 = DenseGATLayer(in_channels, hidden_channels)
        self.conv2 = DenseGATLayer(hidden_channels, out_channels)

    def forward(self, x, adj):
        x = F.elu(self.conv1(x, adj))
        return self.conv2(x, adj)
