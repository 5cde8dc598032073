import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyRCNN(nn.Module):
    """Backbone + RPN head + box head; returns a dict of losses in training."""

    def __init__(self, num_classes=4, num_anchors=3):
        super().__init__()
        self.conv_body = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
        )
        self.rpn_cls = nn.Conv2d(32, num_anchors, 1)
        self.rpn_bbox = nn.Conv2d(32, num_anchors * 4, 1)
        self.box_head = nn.Sequential(nn.Flatten(), nn.Linear(32 * 4 * 4, 64), nn.ReLU())
        self.cls_score = nn.Linear(64, num_classes)
        self.bbox_pred = nn.Linear(64, num_classes * 4)

    def forward(self, data, rpn_labels, rpn_targets, roi_labels, roi_targets):
        feat = self.conv_body(data)
        rpn_logits = self.rpn_cls(feat)
        rpn_deltas = self.rpn_bbox(feat)
        pooled = F.adaptive_max_pool2d(feat, 4)
        box_feat = self.box_head(pooled)
        return {
            'loss_rpn_cls': F.binary_cross_entropy_with_logits(rpn_logits, rpn_labels),
            'loss_rpn_bbox': F.smooth_l1_loss(rpn_deltas, rpn_targets),
            'loss_cls': F.cross_entropy(self.cls_score(box_feat), roi_labels),
            'loss_bbox': F.smooth_l1_loss(self.bbox_pred(box_feat), roi_targets),
        }
