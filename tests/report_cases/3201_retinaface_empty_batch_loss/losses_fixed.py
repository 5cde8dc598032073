import torch
import torch.nn as nn


def calc_iou(a, b):
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    iw = torch.min(a[:, 2:3], b[:, 2]) - torch.max(a[:, 0:1], b[:, 0])
    ih = torch.min(a[:, 3:4], b[:, 3]) - torch.max(a[:, 1:2], b[:, 1])
    iw = torch.clamp(iw, min=0)
    ih = torch.clamp(ih, min=0)
    ua = ((a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])).unsqueeze(1) + area - iw * ih
    return iw * ih / torch.clamp(ua, min=1e-8)


class LossLayer(nn.Module):
    """Anchor-matching loss; images without faces still train the background class."""

    def __init__(self):
        super().__init__()
        self.smoothl1 = nn.SmoothL1Loss()

    def forward(self, classifications, bbox_regressions, anchors, annotations):
        batch_size = classifications.shape[0]
        cls_losses, box_losses = [], []
        for j in range(batch_size):
            classification = classifications[j]
            bbox_regression = bbox_regressions[j]
            annotation = annotations[j]
            annotation = annotation[annotation[:, 0] != -1]
            if annotation.shape[0] == 0:
                # every anchor is background: hard-negative loss, zero box loss tied to the graph
                neg_losses, _ = torch.sort(classification[:, 1] * -1, descending=True)
                cls_losses.append(neg_losses[:16].mean())
                box_losses.append(bbox_regression.sum() * 0.0)
                continue
            iou = calc_iou(anchors, annotation[:, :4])
            iou_max, iou_argmax = torch.max(iou, dim=1)
            positive = torch.ge(iou_max, 0.5)
            negative = torch.lt(iou_max, 0.3)
            num_pos = int(positive.sum())
            neg_losses = classification[negative, 1] * -1
            neg_losses, _ = torch.sort(neg_losses, descending=True)
            if num_pos > 0:
                neg_losses = neg_losses[: 3 * num_pos]
                pos_losses = classification[positive, 0] * -1
                cls_losses.append(pos_losses.mean() + neg_losses.mean())
                assigned = annotation[iou_argmax[positive], :4]
                anc = anchors[positive]
                targets = (assigned - anc) / (anc[:, 2:3] - anc[:, 0:1])
                box_losses.append(self.smoothl1(bbox_regression[positive], targets))
            else:
                cls_losses.append(neg_losses[:16].mean())
                box_losses.append(bbox_regression.sum() * 0.0)
        return torch.stack(cls_losses), torch.stack(box_losses)
