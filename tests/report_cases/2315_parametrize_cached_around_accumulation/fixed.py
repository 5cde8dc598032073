"""Siamese matching network with an orthogonal projection layer.

The projection is parametrized with torch.nn.utils.parametrizations.orthogonal;
the weight is materialised once per micro-batch with parametrize.cached()
because both branches of the pair reuse it.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.parametrize as parametrize
from torch.nn.utils.parametrizations import orthogonal


class SiameseNet(nn.Module):
    def __init__(self, in_dim=32, emb_dim=16):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, emb_dim))
        self.proj = orthogonal(nn.Linear(emb_dim, emb_dim, bias=False))

    def embed(self, x):
        return F.normalize(self.proj(self.trunk(x)), dim=-1)

    def forward(self, img0, img1):
        return (self.embed(img0) * self.embed(img1)).sum(-1)


def contrastive_loss(sim, same, margin=0.5):
    return torch.where(same, 1 - sim, F.relu(sim - margin)).mean()


def make_pairs(n, in_dim=32):
    a = torch.randn(n, in_dim)
    same = torch.rand(n) < 0.5
    b = torch.where(same[:, None], a + 0.1 * torch.randn(n, in_dim), torch.randn(n, in_dim))
    return a, b, same


def training_step(model, optimizer, batch, accum_steps):
    img0, img1, same = batch
    optimizer.zero_grad()
    total = 0.0
    for chunk0, chunk1, chunk_same in zip(img0.chunk(accum_steps), img1.chunk(accum_steps),
                                          same.chunk(accum_steps)):
        # one cached weight per micro-batch: each backward gets its own graph
        with parametrize.cached():
            sim = model(chunk0, chunk1)
            loss = contrastive_loss(sim, chunk_same) / accum_steps
        loss.backward()
        total += loss.item()
    optimizer.step()
    return total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--batch_size", type=int, default=64)
    parser.add_argument("--accum_steps", type=int, default=4)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = SiameseNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(args.steps):
        loss = training_step(model, optimizer, make_pairs(args.batch_size), args.accum_steps)
        print(f"step {step}: loss {loss:.4f}")


if __name__ == "__main__":
    main()
