"""detectron2-style SimpleTrainer with a loss dict, an event storage and a warmup schedule."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
        self.cls_head = nn.Linear(32, 4)
        self.box_head = nn.Linear(32, 4)

    def forward(self, batch):
        feats = self.backbone(batch["image"])
        return {"loss_cls": F.cross_entropy(self.cls_head(feats), batch["label"]),
                "loss_box_reg": F.smooth_l1_loss(self.box_head(feats), batch["box"])}


class EventStorage:
    def __init__(self):
        self.history, self.iter = {}, 0

    def put_scalars(self, **kwargs):
        for k, v in kwargs.items():
            self.history.setdefault(k, []).append((self.iter, float(v)))


class SimpleTrainer:
    def __init__(self, model, data_loader, optimizer, base_lr, warmup=5):
        self.model, self.data_loader, self.optimizer = model, data_loader, optimizer
        self.storage = EventStorage()
        self.sched = {"iter": 0, "base_lr": base_lr, "warmup": warmup}

    def _update_lr(self):
        s = self.sched
        factor = min(1.0, (s["iter"] + 1) / s["warmup"])
        for group in self.optimizer.param_groups:
            group["lr"] = s["base_lr"] * factor

    def run_step(self):
        start = time.perf_counter()
        data = next(self.data_loader)
        data_time = time.perf_counter() - start
        loss_dict = self.model(data)
        losses = sum(loss_dict.values())
        self.optimizer.zero_grad()
        losses.backward()
        self._update_lr()
        self.optimizer.step()
        metrics_dict = {k: v.detach().cpu().item() for k, v in loss_dict.items()}
        metrics_dict["data_time"] = data_time
        self.storage.put_scalars(total_loss=sum(metrics_dict[k] for k in loss_dict), **metrics_dict)
        self.sched["iter"] += 1
        self.storage.iter = self.sched["iter"]


def loader():
    while True:
        yield {"image": torch.randn(8, 16), "label": torch.randint(0, 4, (8,)), "box": torch.rand(8, 4)}


model = TinyDetector()
model.train()
trainer = SimpleTrainer(model, loader(), torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9), 0.02)
for _ in range(10):
    trainer.run_step()
print(trainer.storage.history["total_loss"][-1], trainer.optimizer.param_groups[0]["lr"])
