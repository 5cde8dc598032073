import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@dataclass
class InfiniConfig:
    vocab_size: int = 64
    hidden_size: int = 32
    num_heads: int = 4
    segment_len: int = 16
    num_segments: int = 4
    batch_size: int = 4
    lr: float = 3e-4
    steps: int = 3


class InfiniAttention(nn.Module):
    def __init__(self, cfg: InfiniConfig):
        super().__init__()
        self.h = cfg.num_heads
        self.d = cfg.hidden_size // cfg.num_heads
        self.q_proj = nn.Linear(cfg.hidden_size, cfg.hidden_size, bias=False)
        self.k_proj = nn.Linear(cfg.hidden_size, cfg.hidden_size, bias=False)
        self.v_proj = nn.Linear(cfg.hidden_size, cfg.hidden_size, bias=False)
        self.o_proj = nn.Linear(cfg.hidden_size, cfg.hidden_size, bias=False)
        self.gate = nn.Parameter(torch.full((1, self.h, 1, 1), -2.0))

    def _split(self, x):
        b, n, _ = x.shape
        return x.view(b, n, self.h, self.d).transpose(1, 2)

    def _retrieve_from_memory(self, q, M, z):
        sigma_q = F.elu(q) + 1.0
        return (sigma_q @ M) / ((sigma_q @ z) + 1e-6)

    def _update_memory(self, k, v, M, z):
        sigma_k = F.elu(k) + 1.0
        M = M + sigma_k.transpose(-2, -1) @ v
        z = z + sigma_k.sum(dim=-2, keepdim=True).transpose(-2, -1)
        return M.detach(), z.detach()

    def forward(self, x, memory=None):
        b, n, _ = x.shape
        q, k, v = self._split(self.q_proj(x)), self._split(self.k_proj(x)), self._split(self.v_proj(x))
        if memory is None:
            M = torch.zeros(b, self.h, self.d, self.d)
            z = torch.full((b, self.h, self.d, 1), 1.0 / self.d)
        else:
            M, z = memory
        a_mem = self._retrieve_from_memory(q, M, z)
        a_dot = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        g = torch.sigmoid(self.gate)
        attn = g * a_mem + (1 - g) * a_dot
        M, z = self._update_memory(k, v, M, z)
        out = self.o_proj(attn.transpose(1, 2).reshape(b, n, -1))
        return out, (M, z)


class InfiniLM(nn.Module):
    def __init__(self, cfg: InfiniConfig):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
        self.attn = InfiniAttention(cfg)
        self.norm = nn.LayerNorm(cfg.hidden_size)
        self.mlp = nn.Sequential(nn.Linear(cfg.hidden_size, 4 * cfg.hidden_size), nn.GELU(),
                                 nn.Linear(4 * cfg.hidden_size, cfg.hidden_size))
        self.lm_head = nn.Linear(cfg.hidden_size, cfg.vocab_size)

    def forward(self, input_ids, memory=None):
        h = self.embed(input_ids)
        a, memory = self.attn(h, memory)
        h = h + a
        h = h + self.mlp(self.norm(h))
        return self.lm_head(h), memory


def segments(batch, segment_len):
    for start in range(0, batch.size(1) - 1, segment_len):
        yield batch[:, start:start + segment_len], batch[:, start + 1:start + segment_len + 1]


def train(cfg: InfiniConfig):
    model = InfiniLM(cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    seq_len = cfg.segment_len * cfg.num_segments + 1
    for step in range(cfg.steps):
        batch = torch.randint(0, cfg.vocab_size, (cfg.batch_size, seq_len))
        memory = None
        total = 0.0
        for inputs, labels in segments(batch, cfg.segment_len):
            logits, memory = model(inputs, memory)
            loss = F.cross_entropy(logits.reshape(-1, cfg.vocab_size), labels.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"step {step}: ppl {math.exp(total / cfg.num_segments):.2f}")


if __name__ == "__main__":
    train(InfiniConfig())
