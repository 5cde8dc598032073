"""Tiny bigram-ish transformer LM trained with gradient accumulation (nanoGPT-like loop)."""
import torch
import torch.nn as nn

from config import TrainConfig
from trainer import Trainer


class TinyLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok = nn.Embedding(cfg.vocab_size, cfg.n_embd)
        self.pos = nn.Embedding(cfg.block_size, cfg.n_embd)
        self.block = nn.TransformerEncoderLayer(cfg.n_embd, 2, 4 * cfg.n_embd, dropout=0.0,
                                                batch_first=True, norm_first=True)
        self.ln_f = nn.LayerNorm(cfg.n_embd)
        self.lm_head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)
        self.lm_head.weight = self.tok.weight
        mask = torch.triu(torch.full((cfg.block_size, cfg.block_size), float("-inf")), diagonal=1)
        self.register_buffer("causal_mask", mask)

    def forward(self, idx):
        t = idx.size(1)
        x = self.tok(idx) + self.pos(torch.arange(t))
        x = self.block(x, src_mask=self.causal_mask[:t, :t])
        return self.lm_head(self.ln_f(x))


def main():
    cfg = TrainConfig()
    torch.manual_seed(1337)
    data = torch.randint(0, cfg.vocab_size, (500,))

    def get_batch():
        ix = torch.randint(len(data) - cfg.block_size - 1, (cfg.batch_size,))
        x = torch.stack([data[i:i + cfg.block_size] for i in ix])
        y = torch.stack([data[i + 1:i + 1 + cfg.block_size] for i in ix])
        return x, y

    Trainer(TinyLM(cfg), cfg, get_batch).train()


if __name__ == "__main__":
    main()
