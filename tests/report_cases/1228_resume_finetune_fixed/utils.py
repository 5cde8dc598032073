"""Model / optimizer factories and checkpoint helpers shared by the training scripts."""
import io
import logging

import torch
import torch.nn as nn

logger = logging.getLogger("utils")


class TextCNN(nn.Module):
    def __init__(self, vocab_size, emb_dim, num_filters, kernel_sizes, num_classes, dropout=0.3):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.convs = nn.ModuleList([nn.Conv1d(emb_dim, num_filters, k) for k in kernel_sizes])
        self.dropout = nn.Dropout(dropout)
        self.fc = nn.Linear(num_filters * len(kernel_sizes), num_classes)

    def forward(self, tokens):
        x = self.embedding(tokens).transpose(1, 2)
        pooled = [torch.relu(conv(x)).max(dim=2).values for conv in self.convs]
        return self.fc(self.dropout(torch.cat(pooled, dim=1)))


def build_model(cfg):
    return TextCNN(cfg["vocab_size"], cfg["emb_dim"], cfg["num_filters"], cfg["kernel_sizes"],
                   cfg["num_classes"])


def build_optimizer(model, cfg):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if name.endswith("bias") or "embedding" in name else decay).append(p)
    return torch.optim.AdamW([
        {"params": decay, "weight_decay": cfg["weight_decay"]},
        {"params": no_decay, "weight_decay": 0.0},
    ], lr=cfg["lr"])


def save_checkpoint(model, buffer=None):
    buffer = buffer or io.BytesIO()
    torch.save({"model": model.state_dict()}, buffer)
    buffer.seek(0)
    return buffer


def load_checkpoint(cfg, buffer):
    state = torch.load(buffer, weights_only=True)
    model = build_model(cfg)
    missing, unexpected = model.load_state_dict(state["model"], strict=False)
    logger.info("restored checkpoint (missing=%d, unexpected=%d)", len(missing), len(unexpected))
    return model
