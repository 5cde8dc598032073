"""Composite detection loss returning its named terms."""
import torch.nn.functional as F


class DetectionLoss:
    def __init__(self, w_cls=1.0, w_box=5.0, w_obj=1.0):
        self.w = {"cls": w_cls, "box": w_box, "obj": w_obj}

    def __call__(self, preds, targets):
        terms = {
            "cls": F.cross_entropy(preds["cls"], targets["cls"]),
            "box": F.l1_loss(preds["box"], targets["box"]),
            "obj": F.binary_cross_entropy_with_logits(preds["obj"], targets["obj"]),
        }
        total = sum(self.w[k] * v for k, v in terms.items())
        return total, terms


def box_intersection(a, b):
    lo = a[:, :2].max(b[:, :2])
    hi = a[:, 2:].min(b[:, 2:])
    inter = (hi - lo).clamp(min=0).prod(-1)
    return inter
