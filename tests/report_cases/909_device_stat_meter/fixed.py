"""Masked-token pretraining loop with on-device running statistics.

Statistics are kept as tensors so they can be reduced across workers
without a host sync every step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DeviceStats:
    def __init__(self):
        self.stats = {}

    def device_stat(self, name):
        if name not in self.stats:
            self.stats[name] = torch.zeros(())
        return self.stats[name]

    def report(self, steps):
        return {k: v.item() / steps for k, v in self.stats.items()}


class MaskedLM(nn.Module):
    def __init__(self, vocab=20, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.enc = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        h, _ = self.enc(self.emb(tokens))
        return self.out(h)


def batches(n, vocab=20, batch=4, seq=7):
    for _ in range(n):
        tokens = torch.randint(1, vocab, (batch, seq))
        mask = torch.rand(batch, seq) < 0.3
        yield tokens.masked_fill(mask, 0), tokens, mask


def pretrain(model, opt, stats, n_steps=5):
    for inputs, labels, mask in batches(n_steps):
        logits = model(inputs)
        loss = F.cross_entropy(logits[mask], labels[mask]) if mask.any() else logits.sum() * 0
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        stats.device_stat("average_loss").add_(loss.detach())
    return stats.report(n_steps)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MaskedLM()
    print(pretrain(model, torch.optim.Adam(model.parameters(), lr=1e-3), DeviceStats()))
