# VQA-style base model, a bias "generator" (GenB) and a discriminator.
import torch
import torch.nn as nn


class BaseModel(nn.Module):
    def __init__(self, v_dim=12, q_dim=8, n_ans=6):
        super().__init__()
        self.v_proj = nn.Linear(v_dim, 16)
        self.q_proj = nn.Linear(q_dim, 16)
        self.classifier = nn.Sequential(nn.ReLU(), nn.Linear(16, n_ans))

    def forward(self, v, q):
        return self.classifier(self.v_proj(v) * self.q_proj(q))


class GenB(nn.Module):
    """Bias model: sees the question and noisy visual features only."""

    def __init__(self, v_dim=12, q_dim=8, n_ans=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(v_dim + q_dim, 16), nn.ReLU(), nn.Linear(16, n_ans))

    def forward(self, v, q):
        v_noisy = v + 0.1 * torch.randn_like(v)
        return self.net(torch.cat([v_noisy, q], dim=1))


class Discriminator(nn.Module):
    def __init__(self, n_ans=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_ans, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))

    def forward(self, logits):
        return self.net(torch.sigmoid(logits))
