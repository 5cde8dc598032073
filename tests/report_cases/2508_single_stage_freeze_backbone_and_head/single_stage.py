import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.stage = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU())

    def forward(self, x):
        return (self.stage(self.stem(x)),)


class SSDHead(nn.Module):
    def __init__(self, in_channels=32, num_classes=4, num_anchors=4):
        super().__init__()
        self.num_classes = num_classes
        self.cls_convs = nn.Conv2d(in_channels, num_anchors * (num_classes + 1), 3, padding=1)
        self.reg_convs = nn.Conv2d(in_channels, num_anchors * 4, 3, padding=1)

    def forward(self, feats):
        return [self.cls_convs(f) for f in feats], [self.reg_convs(f) for f in feats]

    def loss(self, cls_scores, bbox_preds, gt_labels, gt_bboxes):
        cls = cls_scores[0].permute(0, 2, 3, 1).reshape(-1, self.num_classes + 1)
        reg = bbox_preds[0].permute(0, 2, 3, 1).reshape(-1, 4)
        return dict(loss_cls=F.cross_entropy(cls, gt_labels.reshape(-1)),
                    loss_bbox=F.smooth_l1_loss(reg, gt_bboxes.reshape(-1, 4)))


class SingleStageDetector(nn.Module):
    def __init__(self, backbone, bbox_head, train_cfg=None):
        super(SingleStageDetector, self).__init__()
        self.backbone = backbone
        self.bbox_head = bbox_head
        self.train_cfg = train_cfg or {}

        for v in self.backbone.parameters():
            v.requires_grad = False

        if self.train_cfg.get('freeze_head', False):
            for v in self.bbox_head.parameters():
                v.requires_grad = False

    def extract_feat(self, img):
        return self.backbone(img)

    def forward_train(self, img, gt_bboxes, gt_labels):
        x = self.extract_feat(img)
        outs = self.bbox_head(x)
        return self.bbox_head.loss(*outs, gt_labels, gt_bboxes)


def parse_losses(losses):
    log_vars = {k: v.mean() for k, v in losses.items()}
    loss = sum(v for k, v in log_vars.items() if 'loss' in k)
    return loss, {k: v.item() for k, v in log_vars.items()}
