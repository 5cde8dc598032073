"""Train the toy detection head for one epoch and report averaged loss terms."""
from dataclasses import dataclass

import torch

from model import Head
from losses import DetectionLoss
from utils import AverageMeter


@dataclass
class Cfg:
    batch: int = 4
    steps: int = 5
    lr: float = 1e-2


def random_targets(b, n_cls=4):
    return {"cls": torch.randint(0, n_cls, (b,)), "box": torch.rand(b, 4), "obj": torch.rand(b, 1).round()}


def train_one_epoch(model, criterion, optimizer, cfg):
    meter = AverageMeter()
    for _ in range(cfg.steps):
        preds = model(torch.randn(cfg.batch, 16))
        loss, terms = criterion(preds, random_targets(cfg.batch))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        meter.update({"total": loss, **terms}, cfg.batch)
    return meter.summary()


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = Cfg()
    head = Head()
    print(train_one_epoch(head, DetectionLoss(), torch.optim.SGD(head.parameters(), lr=cfg.lr), cfg))
