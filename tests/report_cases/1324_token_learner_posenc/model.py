"""Patch transformer with a learnable Fourier position encoder and TokenLearner pooling."""
import math

import torch
import torch.nn as nn


class FourierPositionEncoder(nn.Module):
    """Learnable Fourier features for a fixed patch grid."""

    def __init__(self, num_positions, dim, init_scale=1.0):
        super().__init__()
        self.freqs = nn.Parameter(torch.randn(dim // 2) * init_scale)
        self.phase = nn.Parameter(torch.zeros(dim // 2))
        positions = torch.arange(num_positions, dtype=torch.float32).unsqueeze(1) / num_positions
        angles = 2 * math.pi * positions * self.freqs + self.phase
        self.position_embedding = torch.cat([angles.sin(), angles.cos()], dim=-1)

    def forward(self, tokens):
        return tokens + self.position_embedding[: tokens.size(1)]


class TokenLearner(nn.Module):
    def __init__(self, dim, num_tokens):
        super().__init__()
        self.attn = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, num_tokens))

    def forward(self, x):
        w = self.attn(x).softmax(dim=1)            # (B, N, S)
        return torch.einsum("bns,bnd->bsd", w, x)  # (B, S, D)


class PatchClassifier(nn.Module):
    def __init__(self, image_size=8, patch=2, dim=16, num_tokens=4, num_classes=5):
        super().__init__()
        self.patch = patch
        n = (image_size // patch) ** 2
        self.proj = nn.Linear(3 * patch * patch, dim)
        self.pos = FourierPositionEncoder(n, dim)
        self.block = nn.TransformerEncoderLayer(dim, 4, 2 * dim, dropout=0.0, batch_first=True)
        self.learner = TokenLearner(dim, num_tokens)
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, num_classes))

    def patchify(self, images):
        b, c, h, w = images.shape
        p = self.patch
        x = images.unfold(2, p, p).unfold(3, p, p)          # b c h/p w/p p p
        return x.permute(0, 2, 3, 1, 4, 5).reshape(b, -1, c * p * p)

    def forward(self, images):
        x = self.pos(self.proj(self.patchify(images)))
        x = self.block(x)
        x = self.learner(x)
        return self.head(x.mean(dim=1))
