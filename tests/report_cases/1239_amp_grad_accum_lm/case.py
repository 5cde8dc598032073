"""Char-level GRU LM with autocast + GradScaler and gradient accumulation."""
import math
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainArgs:
    vocab_size: int = 40
    d_model: int = 32
    seq_len: int = 16
    micro_batch: int = 4
    grad_accum_steps: int = 3
    max_steps: int = 3
    lr: float = 3e-3
    max_grad_norm: float = 1.0
    amp_dtype: torch.dtype = torch.bfloat16
    log: dict = field(default_factory=lambda: {"loss": [], "grad_norm": []})


class CharLM(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        self.rnn = nn.GRU(d_model, d_model, batch_first=True)
        self.norm = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, idx, targets=None):
        h, _ = self.rnn(self.embed(idx))
        logits = self.lm_head(self.norm(h))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.float().view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss


def micro_batches(args, corpus):
    while True:
        ix = torch.randint(0, corpus.numel() - args.seq_len - 1, (args.micro_batch,))
        x = torch.stack([corpus[i:i + args.seq_len] for i in ix])
        y = torch.stack([corpus[i + 1:i + 1 + args.seq_len] for i in ix])
        yield x, y


def train(args):
    torch.manual_seed(0)
    corpus = torch.randint(0, args.vocab_size, (2000,))
    model = CharLM(args.vocab_size, args.d_model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1)
    scaler = torch.amp.GradScaler("cpu")
    data = micro_batches(args, corpus)

    model.train()
    optimizer.zero_grad(set_to_none=True)
    for step in range(args.max_steps):
        running_loss = 0.0
        for micro_step in range(args.grad_accum_steps):
            x, y = next(data)
            with torch.autocast(device_type="cpu", dtype=args.amp_dtype):
                _, loss = model(x, y)
                loss = loss / args.grad_accum_steps
            scaler.scale(loss).backward()
            running_loss += loss.item()
        scaler.unscale_(optimizer)
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
        args.log["loss"].append(running_loss)
        args.log["grad_norm"].append(float(grad_norm))
        print(f"step {step}: loss {running_loss:.4f} ppl {math.exp(running_loss):.1f} gnorm {float(grad_norm):.3f}")


if __name__ == "__main__":
    train(TrainArgs())
