import torch
import torch.nn as nn
import torch.nn.functional as F


class YOLOLoss(nn.Module):
    def __init__(self, weights=None):
        super().__init__()
        self.weights = weights or {"box": 7.5, "obj": 1.0, "cls": 0.5}

    def forward(self, preds, targets):
        obj_mask = targets["obj"] > 0
        parts = {
            "box": F.smooth_l1_loss(preds["box"] * obj_mask, targets["box"] * obj_mask),
            "obj": F.binary_cross_entropy_with_logits(preds["obj"], targets["obj"]),
            "cls": F.cross_entropy(preds["cls"], targets["cls"], reduction="none")[obj_mask[:, 0]].mean(),
        }
        total = sum(self.weights[k] * v for k, v in parts.items())
        return total, parts


def synthetic_loader(n_batches, batch_size=4, size=8, num_classes=3):
    for _ in range(n_batches):
        images = torch.randn(batch_size, 3, size, size)
        g = size // 2
        obj = (torch.rand(batch_size, 1, g, g) > 0.6).float()
        obj[:, :, 0, 0] = 1.0
        yield images, {
            "box": torch.rand(batch_size, 4, g, g),
            "obj": obj,
            "cls": torch.randint(0, num_classes, (batch_size, g, g)),
        }
