"""Re-train only the classification branch of a (toy) two-stage detector:
backbone, box head and the box-regression / mask branches run under
torch.no_grad(); only cls_score receives gradients."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU())

    def forward(self, x):
        return self.body(x)


class FastRCNNOutputLayers(nn.Module):
    def __init__(self, in_dim, num_classes):
        super().__init__()
        self.cls_score = nn.Linear(in_dim, num_classes + 1)
        self.bbox_pred = nn.Linear(in_dim, num_classes * 4)


class ROIHeads(nn.Module):
    def __init__(self, num_classes, pooler=4):
        super().__init__()
        self.pooler = pooler
        self.box_head = nn.Sequential(nn.Flatten(), nn.Linear(32 * pooler * pooler, 128), nn.ReLU(),
                                      nn.Linear(128, 128), nn.ReLU())
        self.box_predictor = FastRCNNOutputLayers(128, num_classes)
        self.mask_head = nn.Sequential(nn.Conv2d(32, 32, 3, 1, 1), nn.ReLU(), nn.Conv2d(32, num_classes, 1))

    def pool(self, features, boxes):
        rois = []
        for img_feat, img_boxes in zip(features, boxes):
            for x0, y0, x1, y1 in img_boxes.tolist():
                crop = img_feat[:, int(y0):int(y1) + 1, int(x0):int(x1) + 1]
                rois.append(F.adaptive_avg_pool2d(crop, self.pooler))
        return torch.stack(rois)


class GeneralizedRCNN(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.backbone, self.roi_heads = Backbone(), ROIHeads(num_classes)

    def forward_train_cls_only(self, images, proposals):
        with torch.no_grad():
            features = self.backbone(images)
            roi_feats = self.roi_heads.pool(features, proposals)
            box_features = self.roi_heads.box_head(roi_feats)
            box_deltas = self.roi_heads.box_predictor.bbox_pred(box_features)
            masks = self.roi_heads.mask_head(roi_feats)
        cls_logits = self.roi_heads.box_predictor.cls_score(box_features)
        return cls_logits, box_deltas, masks


def random_proposals(n_img, n_per_img, size=8):
    xy0 = torch.randint(0, size - 3, (n_img, n_per_img, 2))
    wh = torch.randint(1, 3, (n_img, n_per_img, 2))
    return torch.cat([xy0, xy0 + wh], dim=-1).float()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_classes", type=int, default=5)
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--base_lr", type=float, default=0.02)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = GeneralizedRCNN(args.num_classes)
    model.train()
    optimizer = torch.optim.SGD(model.roi_heads.box_predictor.cls_score.parameters(), lr=args.base_lr,
                                momentum=0.9)
    for it in range(args.iters):
        images = torch.randn(2, 3, 32, 32)
        proposals = random_proposals(2, 8)
        gt_classes = torch.randint(0, args.num_classes + 1, (16,))
        cls_logits, _, _ = model.forward_train_cls_only(images, proposals)
        loss_cls = F.cross_entropy(cls_logits, gt_classes)
        optimizer.zero_grad()
        loss_cls.backward()
        optimizer.step()
        if it % 5 == 0:
            print(f"iter {it} loss_cls {loss_cls.item():.4f}")


if __name__ == "__main__":
    main()
