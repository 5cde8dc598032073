"""Tiny character-level GPT trained on a synthetic corpus.

Residual connections are out-of-place; the positional embedding is added
in place onto the token-embedding output, and sampling scales logits in place.
"""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB = 32
CTX = 16
EMB = 32
HEADS = 4
LAYERS = 2


class CausalSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(EMB, 3 * EMB)
        self.proj = nn.Linear(EMB, EMB)
        mask = torch.tril(torch.ones(CTX, CTX)).view(1, 1, CTX, CTX)
        self.register_buffer("mask", mask)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(EMB, dim=2)
        q = q.view(b, t, HEADS, c // HEADS).transpose(1, 2)
        k = k.view(b, t, HEADS, c // HEADS).transpose(1, 2)
        v = v.view(b, t, HEADS, c // HEADS).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(k.size(-1))
        att = att.masked_fill(self.mask[:, :, :t, :t] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
        return self.proj(y)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(EMB, 4 * EMB)
        self.out = nn.Linear(4 * EMB, EMB)

    def forward(self, x):
        return self.out(F.gelu(self.fc(x)))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm(EMB)
        self.attn = CausalSelfAttention()
        self.ln_2 = nn.LayerNorm(EMB)
        self.mlp = MLP()

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok_emb = nn.Embedding(VOCAB, EMB)
        self.pos_emb = nn.Parameter(torch.zeros(1, CTX, EMB))
        self.blocks = nn.ModuleList([Block() for _ in range(LAYERS)])
        self.ln_f = nn.LayerNorm(EMB)
        self.head = nn.Linear(EMB, VOCAB, bias=False)

    def forward(self, idx, targets=None):
        x = self.tok_emb(idx)
        x += self.pos_emb[:, : idx.size(1)]
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.ln_f(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, VOCAB), targets.view(-1))
        return logits, loss


@torch.no_grad()
def sample(model, start, steps=8, temperature=0.8):
    idx = start
    for _ in range(steps):
        logits, _ = model(idx[:, -CTX:])
        logits = logits[:, -1, :]
        logits.div_(temperature)
        probs = F.softmax(logits, dim=-1)
        idx = torch.cat([idx, torch.multinomial(probs, 1)], dim=1)
    return idx


def get_batch(data, batch_size=8):
    ix = torch.randint(len(data) - CTX - 1, (batch_size,))
    x = torch.stack([data[i : i + CTX] for i in ix])
    y = torch.stack([data[i + 1 : i + CTX + 1] for i in ix])
    return x, y


def main():
    data = torch.randint(0, VOCAB, (2000,))
    model = TinyGPT()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for step in range(20):
        xb, yb = get_batch(data)
        _, loss = model(xb, yb)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if step % 5 == 0:
            print(f"step {step} loss {loss.item():.3f}")
    print(sample(model, data[:4].view(1, -1)).tolist())


if __name__ == "__main__":
    main()
