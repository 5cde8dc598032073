"""Tiny CLIP-style dual encoder trained with a symmetric InfoNCE loss."""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class DualEncoderConfig:
    image_dim: int = 24
    vocab: int = 40
    seq_len: int = 7
    width: int = 32
    embed_dim: int = 16
    init_logit_scale: float = math.log(1 / 0.07)
    batch_size: int = 8
    lr: float = 5e-4
    steps: int = 3


class ImageTower(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(cfg.image_dim, cfg.width), nn.GELU(),
                                 nn.Linear(cfg.width, cfg.width))
        self.ln_post = nn.LayerNorm(cfg.width)

    def forward(self, x):
        return self.ln_post(self.mlp(x))


class TextTower(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok = nn.Embedding(cfg.vocab, cfg.width)
        self.pos = nn.Parameter(torch.zeros(cfg.seq_len, cfg.width))
        self.enc = nn.TransformerEncoderLayer(cfg.width, nhead=4, dim_feedforward=2 * cfg.width,
                                              batch_first=True, dropout=0.0)
        self.ln_final = nn.LayerNorm(cfg.width)

    def forward(self, ids):
        h = self.enc(self.tok(ids) + self.pos)
        return self.ln_final(h.mean(dim=1))


class DualEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.visual = ImageTower(cfg)
        self.text = TextTower(cfg)
        self.visual_projection = nn.Linear(cfg.width, cfg.embed_dim, bias=False)
        self.text_projection = nn.Linear(cfg.width, cfg.embed_dim, bias=False)
        self.logit_scale = nn.Parameter(torch.tensor(cfg.init_logit_scale))

    def forward(self, images, ids):
        image_embeds = self.visual_projection(self.visual(images))
        text_embeds = self.text_projection(self.text(ids))

        # normalize features
        image_embeds = image_embeds / (torch.linalg.norm(image_embeds, dim=-1, keepdim=True) + 1e-6)
        text_embeds = text_embeds / (torch.linalg.norm(text_embeds, dim=-1, keepdim=True) + 1e-6)

        logit_scale = self.logit_scale.exp()
        logits_per_image = logit_scale * image_embeds @ text_embeds.t()
        return logits_per_image, logits_per_image.t()


def clip_loss(logits_per_image, logits_per_text):
    labels = torch.arange(logits_per_image.size(0))
    return 0.5 * (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_text, labels))


def main(cfg=DualEncoderConfig()):
    torch.manual_seed(11)
    model = DualEncoder(cfg)
    decay, no_decay = [], []
    for n, p in model.named_parameters():
        (no_decay if p.ndim < 2 or "logit_scale" in n else decay).append(p)
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                             {"params": no_decay, "weight_decay": 0.0}], lr=cfg.lr)
    for step in range(cfg.steps):
        images = torch.randn(cfg.batch_size, cfg.image_dim)
        ids = torch.randint(0, cfg.vocab, (cfg.batch_size, cfg.seq_len))
        lpi, lpt = model(images, ids)
        loss = clip_loss(lpi, lpt)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            model.logit_scale.clamp_(0, math.log(100))
        acc = (lpi.argmax(1) == torch.arange(cfg.batch_size)).float().mean().item()
        print(f"step {step}: loss={loss.item():.4f} i2t_acc={acc:.2f}")


if __name__ == "__main__":
    main()
