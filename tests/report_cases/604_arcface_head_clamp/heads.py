import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ArcFace(nn.Module):
    """Additive angular margin head: logits = s * cos(theta + m) on the target class."""

    def __init__(self, emb_dim, n_classes, s=16.0, m=0.3):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_classes, emb_dim) * 0.1)
        self.s = s
        self.cos_m = math.cos(m)
        self.sin_m = math.sin(m)

    def forward(self, emb, label):
        cosine = F.linear(F.normalize(emb), F.normalize(self.weight))
        cosine = cosine.clamp(-1 + 1e-7, 1 - 1e-7)
        sine = torch.sqrt(1.0 - torch.pow(cosine, 2))
        phi = cosine * self.cos_m - sine * self.sin_m
        rows = torch.arange(emb.size(0))
        # put the margin-penalised logit in place for the ground-truth class
        cosine[rows, label] = phi[rows, label]
        return cosine * self.s
