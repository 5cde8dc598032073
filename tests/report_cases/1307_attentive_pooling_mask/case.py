"""GRU text classifier with attentive pooling over padded sequences."""
import logging
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger(__name__)

hparams = SimpleNamespace(vocab_size=60, emb_dim=16, hidden=16, n_classes=3, pad_idx=0,
                          batch_size=6, max_len=9, lr=1e-3, epochs=2, steps_per_epoch=2)


class AttentivePooling(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.score = nn.Linear(dim, 1, bias=False)

    def forward(self, h, mask):
        # h: (B, T, D), mask: (B, T) True for real tokens
        scores = self.score(torch.tanh(self.proj(h))).squeeze(-1)
        weights = torch.softmax(scores, dim=-1)
        weights[~mask] = 0.0
        weights = weights / weights.sum(dim=-1, keepdim=True).clamp_min(1e-6)
        pooled = torch.bmm(weights.unsqueeze(1), h).squeeze(1)
        return pooled, weights


class GRUClassifier(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.embedding = nn.Embedding(hp.vocab_size, hp.emb_dim, padding_idx=hp.pad_idx)
        self.encoder = nn.GRU(hp.emb_dim, hp.hidden, batch_first=True, bidirectional=True)
        self.pool = AttentivePooling(2 * hp.hidden)
        self.out = nn.Linear(2 * hp.hidden, hp.n_classes)

    def forward(self, tokens, lengths):
        mask = torch.arange(tokens.size(1))[None, :] < lengths[:, None]
        h, _ = self.encoder(self.embedding(tokens))
        pooled, attn = self.pool(h, mask)
        return self.out(pooled), attn


def make_batch(hp):
    lengths = torch.randint(3, hp.max_len + 1, (hp.batch_size,))
    tokens = torch.randint(1, hp.vocab_size, (hp.batch_size, hp.max_len))
    pad = torch.arange(hp.max_len)[None, :] >= lengths[:, None]
    tokens = tokens.masked_fill(pad, hp.pad_idx)
    labels = torch.randint(0, hp.n_classes, (hp.batch_size,))
    return tokens, lengths, labels


def run(hp):
    model = GRUClassifier(hp)
    opt = torch.optim.AdamW(model.parameters(), lr=hp.lr)
    for epoch in range(hp.epochs):
        epoch_loss = 0.0
        for _ in range(hp.steps_per_epoch):
            tokens, lengths, labels = make_batch(hp)
            logits, attn = model(tokens, lengths)
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            epoch_loss += loss.item()
        logger.warning("epoch %d loss %.4f attn-entropy %.3f", epoch, epoch_loss / hp.steps_per_epoch,
                       -(attn.clamp_min(1e-9).log() * attn).sum(-1).mean().item())


if __name__ == "__main__":
    torch.manual_seed(3)
    run(hparams)
