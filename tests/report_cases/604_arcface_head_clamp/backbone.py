import torch.nn as nn


class FaceEmbedder(nn.Module):
    """Stand-in for an IR-50 backbone: flattened 'face' -> 16-d embedding."""

    def __init__(self, in_dim=48, emb_dim=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(in_dim, 64),
            nn.BatchNorm1d(64),
            nn.PReLU(),
            nn.Linear(64, emb_dim),
        )

    def forward(self, x):
        return self.body(x)
