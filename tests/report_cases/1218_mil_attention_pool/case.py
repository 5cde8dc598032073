"""Attention-based multiple-instance learning over padded bags of patch embeddings."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    feat_dim: int = 32
    attn_dim: int = 16
    max_instances: int = 12
    batch_size: int = 6
    epochs: int = 3
    lr: float = 5e-4
    weight_decay: float = 1e-4


class GatedAttentionMIL(nn.Module):
    def __init__(self, feat_dim, attn_dim):
        super().__init__()
        self.attention_V = nn.Sequential(nn.Linear(feat_dim, attn_dim), nn.Tanh())
        self.attention_U = nn.Sequential(nn.Linear(feat_dim, attn_dim), nn.Sigmoid())
        self.attention_w = nn.Linear(attn_dim, 1)
        self.classifier = nn.Linear(feat_dim, 1)

    def forward(self, bags, mask):
        # bags: (B, N, D), mask: (B, N) True for real instances
        scores = self.attention_w(self.attention_V(bags) * self.attention_U(bags)).squeeze(-1)
        A = F.softmax(scores, dim=1)
        A[~mask] = 0.0
        A = A / A.sum(dim=1, keepdim=True).clamp(min=1e-8)
        pooled = torch.bmm(A.unsqueeze(1), bags).squeeze(1)
        return self.classifier(pooled).squeeze(-1), A


def make_batch(cfg):
    lengths = torch.randint(3, cfg.max_instances + 1, (cfg.batch_size,))
    bags = torch.randn(cfg.batch_size, cfg.max_instances, cfg.feat_dim)
    mask = torch.arange(cfg.max_instances)[None, :] < lengths[:, None]
    bags = bags * mask.unsqueeze(-1)
    labels = (bags[..., 0].sum(1) > 0).float()
    return bags, mask, labels


def main():
    cfg = Config()
    torch.manual_seed(0)
    model = GatedAttentionMIL(cfg.feat_dim, cfg.attn_dim)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr, betas=(0.9, 0.999),
                                 weight_decay=cfg.weight_decay)
    for epoch in range(cfg.epochs):
        bags, mask, labels = make_batch(cfg)
        logits, attn = model(bags, mask)
        loss = F.binary_cross_entropy_with_logits(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = ((logits > 0).float() == labels).float().mean().item()
        print(f"epoch {epoch}: loss={loss.item():.4f} acc={acc:.2f} max_attn={attn.max().item():.3f}")


if __name__ == "__main__":
    main()
