from functools import partial

import torch
import torch.nn as nn


def sigmoid_focal_loss(pred, target, weight=None, gamma=2.0, alpha=0.25, reduction="mean", eps=1e-4):
    """Focal loss on per-anchor class logits (one-hot targets)."""
    pred_sigmoid = pred.sigmoid()
    pred_sigmoid.clamp_(min=eps, max=1.0 - eps)
    target = target.type_as(pred)
    pt = (1 - pred_sigmoid) * target + pred_sigmoid * (1 - target)
    focal_weight = (alpha * target + (1 - alpha) * (1 - target)) * pt.pow(gamma)
    bce = -(target * pred_sigmoid.log() + (1 - target) * (1 - pred_sigmoid).log())
    loss = bce * focal_weight
    if weight is not None:
        loss = loss * weight
    if reduction == "mean":
        return loss.sum() / max(1.0, float(target.sum()))
    return loss.sum() if reduction == "sum" else loss


class RetinaHead(nn.Module):
    def __init__(self, in_channels=8, num_anchors=3, num_classes=4, stacked_convs=2):
        super().__init__()
        self.num_classes = num_classes
        convs = []
        for i in range(stacked_convs):
            convs += [nn.Conv2d(in_channels, in_channels, 3, padding=1), nn.ReLU(inplace=True)]
        self.cls_convs = nn.Sequential(*convs)
        self.retina_cls = nn.Conv2d(in_channels, num_anchors * num_classes, 3, padding=1)
        self.retina_reg = nn.Conv2d(in_channels, num_anchors * 4, 3, padding=1)

    def forward(self, feats):
        cls_scores, bbox_preds = [], []
        for x in feats:
            cls_feat = self.cls_convs(x)
            cls_scores.append(self.retina_cls(cls_feat))
            bbox_preds.append(self.retina_reg(x))
        return cls_scores, bbox_preds


def flatten_scores(scores, num_classes):
    return torch.cat([s.permute(0, 2, 3, 1).reshape(-1, num_classes) for s in scores])


def main(iters=4):
    head = RetinaHead()
    loss_cls = partial(sigmoid_focal_loss, gamma=2.0, alpha=0.25)
    loss_bbox = nn.SmoothL1Loss(beta=1 / 9)
    optimizer = torch.optim.SGD(head.parameters(), lr=0.01, momentum=0.9)

    for it in range(iters):
        feats = [torch.randn(2, 8, s, s) for s in (8, 4)]
        cls_scores, bbox_preds = head(feats)
        flat_cls = flatten_scores(cls_scores, head.num_classes)
        labels = torch.randint(0, head.num_classes + 1, (flat_cls.shape[0],))
        onehot = nn.functional.one_hot(labels, head.num_classes + 1)[:, : head.num_classes]
        flat_reg = torch.cat([b.permute(0, 2, 3, 1).reshape(-1, 4) for b in bbox_preds])
        pos = labels < head.num_classes

        losses = {
            "loss_cls": loss_cls(flat_cls, onehot),
            "loss_bbox": loss_bbox(flat_reg[pos], torch.randn(int(pos.sum()), 4)),
        }
        loss = sum(losses.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(it, {k: f"{v.item():.4f}" for k, v in losses.items()})


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
