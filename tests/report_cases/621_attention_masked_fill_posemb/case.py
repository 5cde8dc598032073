# Tiny decoder-only LM. Two in-place ops that are safe: the positional
# embedding is added in place to the token-embedding output (embedding backward
# needs only the indices), and the causal mask is written in place into the
# raw bmm scores (bmm saves its inputs, not its output) before softmax.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).split(D, dim=2)
        scores = torch.bmm(q, k.transpose(1, 2)) / D ** 0.5
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        scores.masked_fill_(mask, float("-inf"))
        attn = F.softmax(scores, dim=-1)
        return self.proj(torch.bmm(attn, v))


class TinyLM(nn.Module):
    def __init__(self, vocab=20, d=16, max_len=12):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, d)
        self.pos_emb = nn.Parameter(torch.zeros(max_len, d))
        self.attn = CausalSelfAttention(d)
        self.ln = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, idx):
        x = self.tok_emb(idx)
        x += self.pos_emb[: idx.size(1)]
        x = x + self.attn(self.ln(x))
        return self.lm_head(x)


torch.manual_seed(0)
model = TinyLM()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
data = torch.randint(0, 20, (4, 9))
for step in range(4):
    logits = model(data[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 20), data[:, 1:].reshape(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    print(step, loss.item())
