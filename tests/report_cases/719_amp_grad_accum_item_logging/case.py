"""Tiny causal LM pretraining loop: GradScaler + gradient accumulation (CPU stand-in for CUDA amp)."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=32, dim=16, block=8):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(block, dim))
        self.mix = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h = self.tok(ids) + self.pos[: ids.size(1)]
        h = torch.cumsum(h, dim=1) / torch.arange(1, ids.size(1) + 1).view(1, -1, 1)
        return self.lm_head(F.gelu(self.mix(h)))


def data_iter(args):
    g = torch.Generator().manual_seed(0)
    while True:
        seq = torch.randint(0, args.vocab, (args.batch_size, args.block + 1), generator=g)
        yield seq[:, :-1], seq[:, 1:]


def train(args):
    torch.manual_seed(0)
    model = TinyCausalLM(args.vocab, block=args.block)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
    scaler = torch.amp.GradScaler("cpu")
    loader = data_iter(args)
    loss_log = []
    for step in range(args.steps):
        X, Y = next(loader)
        lr = args.learning_rate * 0.5 * (1 + math.cos(math.pi * step / args.steps))
        for group in optimizer.param_groups:
            group["lr"] = lr
        logits = model(X)
        loss = F.cross_entropy(logits.reshape(-1, args.vocab), Y.reshape(-1))
        loss = loss / args.accumulation_steps
        scaler.scale(loss).backward()
        if (step + 1) % args.accumulation_steps == 0:
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.grad_clip)
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)
        loss_log.append(loss.item() * args.accumulation_steps)
        if step % args.log_interval == 0:
            print(f"step {step} loss {loss_log[-1]:.4f} lr {lr:.2e}")
    return loss_log


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--vocab", type=int, default=32)
    p.add_argument("--block", type=int, default=8)
    p.add_argument("--batch_size", type=int, default=4)
    p.add_argument("--steps", type=int, default=8)
    p.add_argument("--accumulation_steps", type=int, default=4)
    p.add_argument("--learning_rate", type=float, default=5e-4)
    p.add_argument("--grad_clip", type=float, default=1.0)
    p.add_argument("--log_interval", type=int, default=2)
    train(p.parse_args([]))
