import math
from contextlib import nullcontext
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainArgs:
    accum_freq: int = 2
    epochs: int = 2
    batch_size: int = 8
    lr: float = 5e-3
    wd: float = 0.1
    grad_clip_norm: float = 1.0
    precision: str = "amp_bf16"
    log_every_n_steps: int = 2
    betas: tuple = field(default=(0.9, 0.98))


class TinyCLIP(nn.Module):
    def __init__(self, img_dim=24, txt_vocab=50, embed_dim=16):
        super().__init__()
        self.visual = nn.Sequential(nn.Linear(img_dim, 32), nn.GELU(), nn.Linear(32, embed_dim))
        self.token_embedding = nn.Embedding(txt_vocab, 32)
        self.text_proj = nn.Linear(32, embed_dim)
        self.logit_scale = nn.Parameter(torch.ones([]) * math.log(1 / 0.07))

    def forward(self, image, text):
        image_features = F.normalize(self.visual(image), dim=-1)
        text_features = F.normalize(self.text_proj(self.token_embedding(text).mean(1)), dim=-1)
        return {"image_features": image_features, "text_features": text_features, "logit_scale": self.logit_scale.exp()}


class ClipLoss(nn.Module):
    def forward(self, image_features, text_features, logit_scale, output_dict=False):
        logits_per_image = logit_scale * image_features @ text_features.T
        labels = torch.arange(logits_per_image.shape[0])
        total = (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_image.T, labels)) / 2
        return {"contrastive_loss": total} if output_dict else total


def get_autocast(precision):
    if precision == "amp_bf16":
        return lambda: torch.autocast("cpu", dtype=torch.bfloat16)
    return nullcontext


def backward(total_loss, scaler):
    if scaler is not None:
        scaler.scale(total_loss).backward()
    else:
        total_loss.backward()


def train_one_epoch(model, data, loss, epoch, optimizer, scaler, args):
    autocast = get_autocast(args.precision)
    model.train()
    num_batches_per_epoch = len(data) // args.accum_freq
    losses_m = {}
    optimizer.zero_grad()
    for i, (images, texts) in enumerate(data):
        i_accum = i // args.accum_freq
        with autocast():
            model_out = model(images, texts)
            losses = loss(**model_out, output_dict=True)
            total_loss = sum(losses.values())
            losses["loss"] = total_loss
        backward(total_loss / args.accum_freq, scaler)

        if (i + 1) % args.accum_freq != 0:
            continue

        if scaler is not None:
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.grad_clip_norm, norm_type=2.0)
            scaler.step(optimizer)
            scaler.update()
        else:
            optimizer.step()
        optimizer.zero_grad()

        with torch.no_grad():
            model.logit_scale.clamp_(0, math.log(100))

        for key, val in losses.items():
            losses_m.setdefault(key, []).append(val.item())
        if i_accum % args.log_every_n_steps == 0:
            print(f"Train Epoch: {epoch} [{i_accum}/{num_batches_per_epoch}] "
                  + " ".join(f"{k}: {sum(v) / len(v):.4f}" for k, v in losses_m.items()))


if __name__ == "__main__":
    torch.manual_seed(0)
    args = TrainArgs()
    model = TinyCLIP()
    exclude = lambda n, p: p.ndim < 2 or "bn" in n or "ln" in n or "bias" in n or "logit_scale" in n
    named = list(model.named_parameters())
    gain_or_bias = [p for n, p in named if exclude(n, p)]
    rest = [p for n, p in named if not exclude(n, p)]
    optimizer = torch.optim.AdamW(
        [{"params": gain_or_bias, "weight_decay": 0.0}, {"params": rest, "weight_decay": args.wd}],
        lr=args.lr, betas=args.betas,
    )
    scaler = torch.amp.GradScaler("cpu") if args.precision.startswith("amp") else None
    data = [(torch.randn(args.batch_size, 24), torch.randint(0, 50, (args.batch_size, 6))) for _ in range(6)]
    for epoch in range(args.epochs):
        train_one_epoch(model, data, ClipLoss(), epoch, optimizer, scaler, args)
