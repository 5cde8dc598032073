"""One epoch of a toy detector with per-term loss bookkeeping."""
from collections import defaultdict
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainCfg:
    feat: int = 16
    n_cls: int = 5
    batch: int = 4
    steps: int = 6
    lr: float = 1e-2


class TinyDetector(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(cfg.feat, 32), nn.SiLU())
        self.cls_head = nn.Linear(32, cfg.n_cls)
        self.box_head = nn.Linear(32, 4)

    def forward(self, x):
        h = self.backbone(x)
        return self.cls_head(h), self.box_head(h)


def compute_losses(outputs, targets):
    cls_logits, boxes = outputs
    return {
        "cls": F.cross_entropy(cls_logits, targets["cls"]),
        "box": F.smooth_l1_loss(boxes, targets["box"]),
        "iou": (1 - F.cosine_similarity(boxes, targets["box"])).mean(),
    }


def train_one_epoch(model, optimizer, cfg):
    total_loss = defaultdict(float)
    for _ in range(cfg.steps):
        x = torch.randn(cfg.batch, cfg.feat)
        targets = {"cls": torch.randint(0, cfg.n_cls, (cfg.batch,)), "box": torch.rand(cfg.batch, 4)}
        losses = compute_losses(model(x), targets)
        loss = sum(losses.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for name, value in losses.items():
            total_loss[name] += value.item() * cfg.batch
    n = cfg.steps * cfg.batch
    return {k: float(v) / n for k, v in total_loss.items()}


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = TrainCfg()
    model = TinyDetector(cfg)
    opt = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=0.9)
    print(train_one_epoch(model, opt, cfg))
