import torch
import torch.nn as nn


class ResidualBlock(nn.Module):
    """Pre-norm residual MLP block used by the tabular ResNet baseline."""

    def __init__(self, d, d_hidden, dropout=0.1, shortcut=None):
        super().__init__()
        self.left = nn.Sequential(
            nn.BatchNorm1d(d),
            nn.Linear(d, d_hidden),
            nn.ReLU(inplace=True),
            nn.Dropout(dropout),
            nn.Linear(d_hidden, d),
            nn.ReLU(inplace=True),
        )
        self.right = shortcut

    def forward(self, x):
        out = self.left(x)
        residual = x if self.right is None else self.right(x)
        out = out + residual
        return out


class CategoricalEmbedding(nn.Module):
    def __init__(self, cardinalities, d_token):
        super().__init__()
        self.embeddings = nn.ModuleList(nn.Embedding(c, d_token) for c in cardinalities)

    def forward(self, x_cat):
        return torch.cat([emb(x_cat[:, i]) for i, emb in enumerate(self.embeddings)], dim=1)
