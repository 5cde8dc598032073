import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLMHeadModel(nn.Module):
    def __init__(self, vocab_size=50, n_embd=32, n_positions=16):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(n_positions, n_embd)
        self.block = nn.TransformerEncoderLayer(n_embd, nhead=4, dim_feedforward=64,
                                                dropout=0.0, batch_first=True)
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, input_ids, labels=None):
        T = input_ids.size(1)
        mask = torch.triu(torch.full((T, T), float('-inf')), diagonal=1)
        h = self.wte(input_ids) + self.wpe(torch.arange(T))
        h = self.ln_f(self.block(h, src_mask=mask))
        logits = self.lm_head(h)
        out = {"logits": logits}
        if labels is not None:
            out["loss"] = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)),
                                          labels[:, 1:].reshape(-1))
        return out
