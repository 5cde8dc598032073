"""Tiny single-stage detector: conv backbone -> PAFPN neck -> dense classification/regression head."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from neck import PAFPN

torch.manual_seed(0)

cfg = dict(
    neck=dict(in_channels=(8, 16, 32), out_channels=16, act_cfg=dict(type="ReLU")),
    num_classes=4, lr=0.01, iters=6, batch_size=2,
)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stages = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(8, 16, 3, 2, 1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU()),
        ])

    def forward(self, x):
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        return feats


class DenseHead(nn.Module):
    def __init__(self, in_ch, num_classes):
        super().__init__()
        self.cls = nn.Conv2d(in_ch, num_classes, 3, padding=1)
        self.reg = nn.Conv2d(in_ch, 4, 3, padding=1)

    def forward(self, feats):
        return [self.cls(f) for f in feats], [self.reg(f) for f in feats]


class Detector(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.backbone = Backbone()
        self.neck = PAFPN(**cfg["neck"])
        self.head = DenseHead(cfg["neck"]["out_channels"], cfg["num_classes"])

    def loss(self, img, cls_targets, box_targets):
        cls_outs, reg_outs = self.head(self.neck(self.backbone(img)))
        loss_cls = sum(F.cross_entropy(c, t) for c, t in zip(cls_outs, cls_targets))
        loss_box = sum(F.smooth_l1_loss(r, t) for r, t in zip(reg_outs, box_targets))
        return dict(loss_cls=loss_cls, loss_bbox=loss_box)


def make_batch(bs, num_classes):
    img = torch.randn(bs, 3, 32, 32)
    sizes = [16, 8, 4]
    cls_t = [torch.randint(0, num_classes, (bs, s, s)) for s in sizes]
    box_t = [torch.randn(bs, 4, s, s) for s in sizes]
    return img, cls_t, box_t


def train(cfg):
    model = Detector(cfg)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9)
    for it in range(cfg["iters"]):
        losses = model.loss(*make_batch(cfg["batch_size"], cfg["num_classes"]))
        loss = sum(losses.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it}: " + ", ".join(f"{k}={v.item():.3f}" for k, v in losses.items()))


if __name__ == "__main__":
    train(cfg)
