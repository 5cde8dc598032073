import torch
import torch.nn as nn
import torch.nn.functional as F


class ARMAConv(nn.Module):
    """ARMA graph convolution: K parallel stacks of T recursive propagation layers, averaged."""

    def __init__(self, in_dim, out_dim, num_stacks=2, num_layers=2, activation=F.relu):
        super().__init__()
        self.K, self.T = num_stacks, num_layers
        self.activation = activation
        self.w_0 = nn.ModuleList([nn.Linear(in_dim, out_dim, bias=False) for _ in range(self.K)])
        self.w = nn.ModuleList([nn.Linear(out_dim, out_dim, bias=False) for _ in range(self.K)])
        self.v = nn.ModuleList([nn.Linear(in_dim, out_dim, bias=False) for _ in range(self.K)])
        self.bias = nn.Parameter(torch.zeros(self.K, self.T, 1, out_dim))

    def forward(self, norm_adj, feats):
        output = None
        for k in range(self.K):
            init_feats = feats
            feats_k = self.w_0[k](feats)
            for t in range(self.T):
                if t > 0:
                    feats_k = self.w[k](feats_k)
                feats_k = norm_adj @ feats_k + self.v[k](init_feats) + self.bias[k][t]
                feats_k = self.activation(feats_k)
            if output is None:
                output = feats_k
            else:
                output += feats_k
        return output / self.K


class ARMA4NC(nn.Module):
    def __init__(self, in_dim, hid_dim, out_dim, num_stacks=2, num_layers=2, dropout=0.2):
        super().__init__()
        self.conv1 = ARMAConv(in_dim, hid_dim, num_stacks, num_layers)
        self.conv2 = ARMAConv(hid_dim, out_dim, num_stacks, num_layers, activation=lambda x: x)
        self.dropout = nn.Dropout(dropout)

    def forward(self, norm_adj, feats):
        feats = self.dropout(feats)
        feats = self.conv1(norm_adj, feats)
        feats = self.dropout(feats)
        return self.conv2(norm_adj, feats)
