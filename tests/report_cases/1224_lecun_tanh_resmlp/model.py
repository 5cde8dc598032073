import torch.nn as nn

from ops import LeCunTanh


class ResidualMLPBlock(nn.Module):
    def __init__(self, dim, expansion=2):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, dim * expansion)
        self.act1 = LeCunTanh()
        self.fc2 = nn.Linear(dim * expansion, dim)
        self.act2 = LeCunTanh()

    def forward(self, x):
        h = self.act1(self.fc1(self.norm(x)))
        out = self.act2(self.fc2(h))
        out += x
        return out


class ResMLPRegressor(nn.Module):
    def __init__(self, in_dim, dim, depth, out_dim):
        super().__init__()
        self.stem = nn.Linear(in_dim, dim)
        self.blocks = nn.Sequential(*[ResidualMLPBlock(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, out_dim)

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)))
