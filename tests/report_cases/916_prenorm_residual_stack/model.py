"""Pre-norm residual MLP stack used as a tabular encoder."""
import torch.nn as nn


class PreNormResidual(nn.Module):
    def __init__(self, dim, mult=2):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, dim * mult)
        self.act = nn.ReLU(inplace=True)
        self.fc2 = nn.Linear(dim * mult, dim)

    def forward(self, x):
        residual = x
        x = self.norm(x)
        out = self.fc1(x)
        out = self.act(out)
        out = self.fc2(out)
        out += residual
        return out


class Encoder(nn.Module):
    def __init__(self, in_dim=10, dim=16, depth=3, n_out=2):
        super().__init__()
        self.stem = nn.Linear(in_dim, dim)
        self.layers = nn.ModuleList([PreNormResidual(dim) for _ in range(depth)])
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, n_out))

    def forward(self, x):
        x = self.stem(x)
        for layer in self.layers:
            x = layer(x)
        return self.head(x)
