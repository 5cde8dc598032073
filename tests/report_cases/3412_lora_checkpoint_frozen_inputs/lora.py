"""A small decoder-only LM plus LoRA adapters and activation checkpointing
helpers, mimicking the pieces of a PEFT fine-tuning stack."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.lora_A = nn.Parameter(torch.randn(r, base.in_features) / math.sqrt(base.in_features))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scale


class Block(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.q, self.k, self.v, self.o = (nn.Linear(dim, dim) for _ in range(4))
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.heads = heads

    def forward(self, x):
        b, t, d = x.shape
        h = self.ln1(x)
        q, k, v = (m(h).view(b, t, self.heads, -1).transpose(1, 2) for m in (self.q, self.k, self.v))
        att = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.o(att.transpose(1, 2).reshape(b, t, d))
        return x + self.ff(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self, vocab=64, dim=32, layers=2, ctx=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(ctx, dim)
        self.blocks = nn.ModuleList([Block(dim) for _ in range(layers)])
        self.norm = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.gradient_checkpointing = False
        self.use_reentrant = True

    def gradient_checkpointing_enable(self, use_reentrant=True):
        self.gradient_checkpointing = True
        self.use_reentrant = use_reentrant

    def enable_input_require_grads(self):
        def make_inputs_require_grad(module, inputs, output):
            output.requires_grad_(True)
        self.embed.register_forward_hook(make_inputs_require_grad)

    def forward(self, idx, labels=None):
        pos = torch.arange(idx.size(1))
        h = self.embed(idx) + self.pos(pos)
        for block in self.blocks:
            if self.gradient_checkpointing and self.training:
                h = checkpoint(block, h, use_reentrant=self.use_reentrant)
            else:
                h = block(h)
        logits = self.lm_head(self.norm(h))
        if labels is None:
            return logits
        return F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1))


def inject_lora(model, targets=("q", "v"), r=4):
    for p in model.parameters():
        p.requires_grad_(False)
    for block in model.blocks:
        for name in targets:
            setattr(block, name, LoRALinear(getattr(block, name), r=r))
    return [p for n, p in model.named_parameters() if "lora_" in n]
