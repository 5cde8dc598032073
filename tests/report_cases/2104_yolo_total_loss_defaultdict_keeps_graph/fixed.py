"""YOLO-style trainer: per-epoch loss bookkeeping in a defaultdict of tensors.
Synthetic detection batches (grid targets) on CPU.
Fixed: the epoch totals are Python floats (loss_val.item()), as in the PR thread."""
from collections import defaultdict
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainConfig:
    epochs: int = 2
    batches_per_epoch: int = 5
    batch_size: int = 4
    num_classes: int = 3
    lr: float = 1e-3


class TinyYOLO(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 8, 3, 2, 1), nn.SiLU(),
            nn.Conv2d(8, 16, 3, 2, 1), nn.SiLU(),
        )
        self.box_head = nn.Conv2d(16, 4, 1)
        self.cls_head = nn.Conv2d(16, num_classes, 1)

    def forward(self, x):
        f = self.backbone(x)
        return self.box_head(f), self.cls_head(f)


class YOLOLoss:
    def __init__(self, box_weight=7.5, cls_weight=0.5, dfl_weight=1.5):
        self.w = dict(BoxLoss=box_weight, BCELoss=cls_weight, DFLoss=dfl_weight)

    def __call__(self, preds, targets):
        box_pred, cls_pred = preds
        box_t, cls_t = targets
        loss_each = {
            "BoxLoss": F.smooth_l1_loss(box_pred, box_t),
            "BCELoss": F.binary_cross_entropy_with_logits(cls_pred, cls_t),
            "DFLoss": (box_pred.softmax(1) * box_t.abs()).mean(),
        }
        total = sum(self.w[k] * v for k, v in loss_each.items())
        return total, loss_each


class ModelTrainer:
    def __init__(self, cfg: TrainConfig):
        self.cfg = cfg
        self.device = torch.device("cpu")
        self.model = TinyYOLO(cfg.num_classes).to(self.device)
        self.loss_fn = YOLOLoss()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=cfg.lr, momentum=0.9)

    def make_batch(self):
        b, c = self.cfg.batch_size, self.cfg.num_classes
        images = torch.randn(b, 3, 16, 16)
        box_t = torch.rand(b, 4, 4, 4)
        cls_t = (torch.rand(b, c, 4, 4) > 0.7).float()
        return images, (box_t, cls_t)

    def train_one_batch(self, images, targets):
        self.optimizer.zero_grad()
        preds = self.model(images)
        loss, loss_each = self.loss_fn(preds, targets)
        loss.backward()
        self.optimizer.step()
        return loss_each

    def train_one_epoch(self):
        self.model.train()
        total_loss = defaultdict(float)
        total_samples = 0
        for _ in range(self.cfg.batches_per_epoch):
            images, targets = self.make_batch()
            batch_size = images.shape[0]
            loss_each = self.train_one_batch(images, targets)
            for loss_name, loss_val in loss_each.items():
                total_loss[loss_name] += loss_val.item() * batch_size
            total_samples += batch_size
        return {k: v / total_samples for k, v in total_loss.items()}

    def solve(self):
        for epoch in range(self.cfg.epochs):
            epoch_loss = self.train_one_epoch()
            msg = " ".join(f"{k}={float(v):.4f}" for k, v in epoch_loss.items())
            print(f"epoch {epoch}: {msg}")


if __name__ == "__main__":
    torch.manual_seed(0)
    ModelTrainer(TrainConfig()).solve()
