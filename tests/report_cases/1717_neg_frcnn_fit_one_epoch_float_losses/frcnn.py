import torch
import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
            nn.Conv2d(16, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU(inplace=True),
        )

    def forward(self, x):
        return self.features(x)


class RegionProposalNetwork(nn.Module):
    def __init__(self, in_channels, n_anchor=3):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, in_channels, 3, 1, 1)
        self.score = nn.Conv2d(in_channels, n_anchor * 2, 1)
        self.loc = nn.Conv2d(in_channels, n_anchor * 4, 1)

    def forward(self, x):
        h = F.relu(self.conv1(x))
        n = x.shape[0]
        rpn_locs = self.loc(h).permute(0, 2, 3, 1).reshape(n, -1, 4)
        rpn_scores = self.score(h).permute(0, 2, 3, 1).reshape(n, -1, 2)
        return rpn_locs, rpn_scores


class RoIHead(nn.Module):
    def __init__(self, in_channels, n_class, roi_size=4):
        super().__init__()
        self.roi_size = roi_size
        self.classifier = nn.Sequential(nn.Linear(in_channels * roi_size * roi_size, 64), nn.ReLU(inplace=True))
        self.cls_loc = nn.Linear(64, n_class * 4)
        self.score = nn.Linear(64, n_class)

    def forward(self, x):
        pool = F.adaptive_max_pool2d(x, self.roi_size).flatten(1)
        fc7 = self.classifier(pool)
        return self.cls_loc(fc7), self.score(fc7)


class FasterRCNN(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.extractor = Backbone()
        self.rpn = RegionProposalNetwork(32)
        self.head = RoIHead(32, num_classes + 1)

    def forward(self, x):
        base_feature = self.extractor(x)
        rpn_locs, rpn_scores = self.rpn(base_feature)
        roi_cls_locs, roi_scores = self.head(base_feature)
        return rpn_locs, rpn_scores, roi_cls_locs, roi_scores

    def freeze_bn(self):
        for m in self.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()


class FasterRCNNTrainer(nn.Module):
    def __init__(self, model, optimizer):
        super().__init__()
        self.model = model
        self.optimizer = optimizer

    def forward(self, imgs, rpn_loc_t, rpn_lbl_t, roi_loc_t, roi_lbl_t):
        rpn_locs, rpn_scores, roi_cls_locs, roi_scores = self.model(imgs)
        rpn_loc_loss = F.smooth_l1_loss(rpn_locs, rpn_loc_t)
        rpn_cls_loss = F.cross_entropy(rpn_scores.reshape(-1, 2), rpn_lbl_t.reshape(-1))
        n = roi_cls_locs.shape[0]
        roi_loc = roi_cls_locs.view(n, -1, 4)[torch.arange(n), roi_lbl_t]
        roi_loc_loss = F.smooth_l1_loss(roi_loc, roi_loc_t)
        roi_cls_loss = F.cross_entropy(roi_scores, roi_lbl_t)
        losses = [rpn_loc_loss, rpn_cls_loss, roi_loc_loss, roi_cls_loss]
        return losses + [sum(losses)]

    def train_step(self, imgs, *targets):
        self.optimizer.zero_grad()
        losses = self.forward(imgs, *targets)
        losses[-1].backward()
        self.optimizer.step()
        return losses
