"""Small MLP backbone with residual feed-forward blocks."""
import torch
import torch.nn as nn


class FeedForwardBlock(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc_in = nn.Linear(dim, hidden)
        self.act = nn.Tanh()
        self.mix = nn.Linear(hidden, hidden)
        self.fc_out = nn.Linear(hidden, dim)

    def forward(self, x):
        h = self.act(self.fc_in(self.norm(x)))
        h += self.mix(h)
        return x + self.fc_out(h)


class Backbone(nn.Module):
    def __init__(self, dim=8, hidden=16, depth=2, n_classes=3):
        super().__init__()
        self.blocks = nn.ModuleList([FeedForwardBlock(dim, hidden) for _ in range(depth)])
        self.head = nn.Linear(dim, n_classes)

    def forward(self, tokens):
        for blk in self.blocks:
            tokens = blk(tokens)
        return self.head(tokens.mean(1))
