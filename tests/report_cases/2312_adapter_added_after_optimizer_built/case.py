"""Adapter training of a small seq2seq transformer without the Trainer class.

Mimics the adapter-transformers API: `add_adapter(name)` inserts bottleneck
adapters into every layer and `train_adapter(name)` freezes the pretrained
weights so that only the adapter weights are trained.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class BottleneckAdapter(nn.Module):
    def __init__(self, d, reduction=4):
        super().__init__()
        self.down = nn.Linear(d, d // reduction)
        self.up = nn.Linear(d // reduction, d)
        nn.init.zeros_(self.up.weight)
        nn.init.zeros_(self.up.bias)

    def forward(self, h):
        return h + self.up(F.relu(self.down(h)))


class Layer(nn.Module):
    def __init__(self, d, nhead):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, nhead, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.adapters = nn.ModuleDict()
        self.active_adapter = None

    def forward(self, x, mem=None):
        kv = x if mem is None else mem
        x = self.ln1(x + self.attn(x, kv, kv)[0])
        h = self.ff(x)
        if self.active_adapter is not None:
            h = self.adapters[self.active_adapter](h)
        return self.ln2(x + h)


class TinyT5(nn.Module):
    def __init__(self, vocab=50, d=32, nhead=4, n_layers=2):
        super().__init__()
        self.shared = nn.Embedding(vocab, d)
        self.encoder = nn.ModuleList([Layer(d, nhead) for _ in range(n_layers)])
        self.decoder = nn.ModuleList([Layer(d, nhead) for _ in range(n_layers)])
        self.lm_head = nn.Linear(d, vocab)

    def layers(self):
        return list(self.encoder) + list(self.decoder)

    def add_adapter(self, name, reduction=4):
        for layer in self.layers():
            layer.adapters[name] = BottleneckAdapter(self.shared.embedding_dim, reduction)

    def train_adapter(self, name):
        for p in self.parameters():
            p.requires_grad_(False)
        for layer in self.layers():
            layer.active_adapter = name
            for p in layer.adapters[name].parameters():
                p.requires_grad_(True)

    def forward(self, input_ids, decoder_input_ids, labels=None):
        h = self.shared(input_ids)
        for layer in self.encoder:
            h = layer(h)
        y = self.shared(decoder_input_ids)
        for layer in self.decoder:
            y = layer(y, mem=h)
        logits = self.lm_head(y)
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), labels.reshape(-1))
        return loss, logits


def make_batch(bs, length, vocab):
    src = torch.randint(2, vocab, (bs, length))
    tgt = src.flip(1)
    dec_in = torch.cat([torch.ones(bs, 1, dtype=torch.long), tgt[:, :-1]], 1)
    return src, dec_in, tgt


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--task_name", default="reverse")
    parser.add_argument("--learning_rate", type=float, default=1e-3)
    parser.add_argument("--num_train_steps", type=int, default=15)
    args = parser.parse_args()

    torch.manual_seed(0)
    model = TinyT5()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
    model.add_adapter(args.task_name)
    model.train_adapter(args.task_name)

    model.train()
    for step in range(args.num_train_steps):
        src, dec_in, tgt = make_batch(16, 8, 50)
        loss, _ = model(src, dec_in, labels=tgt)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 5 == 0:
            print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
