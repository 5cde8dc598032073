"""Tiny GPT trained nanoGPT-style with gradient accumulation and a cosine learning-rate schedule."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
V, T, C = 40, 12, 32


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(C), nn.LayerNorm(C)
        self.attn = nn.MultiheadAttention(C, 4, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(C, 4 * C), nn.GELU(), nn.Linear(4 * C, C))
        self.register_buffer("mask", torch.triu(torch.ones(T, T, dtype=torch.bool), 1))

    def forward(self, x):
        h = self.ln_1(x)
        x = x + self.attn(h, h, h, attn_mask=self.mask[:x.size(1), :x.size(1)], need_weights=False)[0]
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, n_layer=2):
        super().__init__()
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(V, C), wpe=nn.Embedding(T, C),
            h=nn.ModuleList([Block() for _ in range(n_layer)]), ln_f=nn.LayerNorm(C)))
        self.lm_head = nn.Linear(C, V, bias=False)

    def forward(self, idx, targets=None):
        pos = torch.arange(idx.size(1))
        x = self.transformer.wte(idx)
        x += self.transformer.wpe(pos)
        for block in self.transformer.h:
            x = block(x)
        logits = self.lm_head(self.transformer.ln_f(x))
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(-1, V), targets.view(-1))


def get_lr(it, warmup=2, max_iters=6, max_lr=3e-3, min_lr=3e-4):
    if it < warmup:
        return max_lr * (it + 1) / warmup
    ratio = (it - warmup) / (max_iters - warmup)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (max_lr - min_lr)


model = GPT()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.1)
data = torch.randint(0, V, (2000,))
gradient_accumulation_steps = 4


def get_batch(bs=4):
    ix = torch.randint(len(data) - T - 1, (bs,))
    return (torch.stack([data[i:i + T] for i in ix]),
            torch.stack([data[i + 1:i + 1 + T] for i in ix]))


for iter_num in range(6):
    for param_group in optimizer.param_groups:
        param_group["lr"] = get_lr(iter_num)
    for micro_step in range(gradient_accumulation_steps):
        X, Y = get_batch()
        logits, loss = model(X, Y)
        loss = loss / gradient_accumulation_steps
        loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    lossf = loss.item() * gradient_accumulation_steps
    print(f"iter {iter_num}: loss {lossf:.4f}")
