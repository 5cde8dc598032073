"""nanoGPT-style loop: gradient accumulation over micro-steps, periodic no_grad evaluation."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

config = dict(block_size=16, vocab_size=32, n_embd=32, batch_size=4,
              gradient_accumulation_steps=4, learning_rate=3e-3, max_iters=6, eval_interval=3,
              eval_iters=2, grad_clip=1.0, warmup_iters=2)

data = torch.randint(0, config["vocab_size"], (2000,))
train_data, val_data = data[:1800], data[1800:]


def get_batch(split):
    d = train_data if split == "train" else val_data
    ix = torch.randint(len(d) - config["block_size"], (config["batch_size"],))
    x = torch.stack([d[i:i + config["block_size"]] for i in ix])
    y = torch.stack([d[i + 1:i + 1 + config["block_size"]] for i in ix])
    return x, y


class TinyGPT(nn.Module):
    def __init__(self, vocab_size, block_size, n_embd):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.block = nn.TransformerEncoderLayer(n_embd, 4, 4 * n_embd, dropout=0.0, batch_first=True)
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.register_buffer("mask", torch.triu(torch.full((block_size, block_size), float("-inf")), 1))

    def forward(self, idx, targets=None):
        t = idx.size(1)
        x = self.wte(idx) + self.wpe(torch.arange(t))
        x = self.ln_f(self.block(x, src_mask=self.mask[:t, :t]))
        logits = self.lm_head(x)
        loss = None if targets is None else F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss


model = TinyGPT(config["vocab_size"], config["block_size"], config["n_embd"])
optimizer = torch.optim.AdamW(model.parameters(), lr=config["learning_rate"], betas=(0.9, 0.95))


@torch.no_grad()
def estimate_loss():
    out = {}
    model.eval()
    for split in ("train", "val"):
        losses = torch.zeros(config["eval_iters"])
        for k in range(config["eval_iters"]):
            X, Y = get_batch(split)
            _, loss = model(X, Y)
            losses[k] = loss.item()
        out[split] = losses.mean()
    model.train()
    return out


def get_lr(it):
    if it < config["warmup_iters"]:
        return config["learning_rate"] * (it + 1) / config["warmup_iters"]
    progress = (it - config["warmup_iters"]) / max(1, config["max_iters"] - config["warmup_iters"])
    return config["learning_rate"] * 0.5 * (1 + math.cos(math.pi * progress))


X, Y = get_batch("train")
for iter_num in range(config["max_iters"]):
    for param_group in optimizer.param_groups:
        param_group["lr"] = get_lr(iter_num)
    if iter_num % config["eval_interval"] == 0:
        losses = estimate_loss()
        print(f"step {iter_num}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")

    for micro_step in range(config["gradient_accumulation_steps"]):
        logits, loss = model(X, Y)
        loss = loss / config["gradient_accumulation_steps"]
        X, Y = get_batch("train")  # prefetch the next micro-batch
        loss.backward()
    if config["grad_clip"] != 0.0:
        torch.nn.utils.clip_grad_norm_(model.parameters(), config["grad_clip"])
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    lossf = loss.item() * config["gradient_accumulation_steps"]
    print(f"iter {iter_num}: loss {lossf:.4f}")
