"""Padded-sequence self-attention encoder with key-padding masks (set classification)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedSelfAttention(nn.Module):
    def __init__(self, dim, heads=2):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, key_padding_mask):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn.masked_fill_(key_padding_mask[:, None, None, :], float("-inf"))
        attn = attn.softmax(dim=-1)
        attn = attn.masked_fill(key_padding_mask[:, None, :, None], 0.0)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(x)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = MaskedSelfAttention(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, mask):
        x = x + self.attn(self.norm1(x), mask)
        x = x + self.mlp(self.norm2(x))
        return x


class SetClassifier(nn.Module):
    def __init__(self, d_in=6, dim=16, depth=2, n_classes=3):
        super().__init__()
        self.embed = nn.Linear(d_in, dim)
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x, mask):
        h = self.embed(x)
        for blk in self.blocks:
            h = blk(h, mask)
        keep = (~mask).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1).clamp_min(1.0)
        return self.head(pooled)


def main():
    torch.manual_seed(0)
    model = SetClassifier()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    warmup = 2
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warmup))
    for step in range(4):
        lengths = torch.randint(2, 7, (5,))
        x = torch.randn(5, 6, 6)
        mask = torch.arange(6)[None, :] >= lengths[:, None]
        y = (lengths > 4).long() + (x[:, 0, 0] > 1).long()
        logits = model(x, mask)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        print(f"step {step}: loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.2e} ppl {math.exp(loss.item()):.2f}")


if __name__ == "__main__":
    main()
