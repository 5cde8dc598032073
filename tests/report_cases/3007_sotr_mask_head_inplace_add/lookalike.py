"""SOTR-style instance segmentation mask head: FPN levels are each brought to 1/4 resolution
by a conv tower and summed into a unified mask feature, then projected to mask kernels."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MaskHead(nn.Module):
    def __init__(self, num_levels=4, in_channels=8, mask_channels=16, num_masks=8):
        super().__init__()
        self.num_levels = num_levels
        self.convs_all_levels = nn.ModuleList()
        for i in range(num_levels):
            convs_per_level = nn.Sequential()
            if i == 0:
                conv_tower = [nn.Conv2d(in_channels, mask_channels, 3, padding=1, bias=False),
                              nn.GroupNorm(4, mask_channels), nn.ReLU(inplace=False)]
                convs_per_level.add_module('conv0', nn.Sequential(*conv_tower))
                self.convs_all_levels.append(convs_per_level)
                continue
            for j in range(i):
                chn = in_channels if j == 0 else mask_channels
                conv_tower = [nn.Conv2d(chn, mask_channels, 3, padding=1, bias=False),
                              nn.GroupNorm(4, mask_channels), nn.ReLU(inplace=False)]
                convs_per_level.add_module('conv' + str(j), nn.Sequential(*conv_tower))
                convs_per_level.add_module('upsample' + str(j),
                                           nn.Upsample(scale_factor=2, mode='bilinear', align_corners=False))
            self.convs_all_levels.append(convs_per_level)
        self.conv_pred = nn.Sequential(nn.Conv2d(mask_channels, num_masks, 1, bias=False),
                                       nn.GroupNorm(4, num_masks), nn.ReLU(inplace=True))

    def forward(self, features):
        assert len(features) == self.num_levels
        level0 = self.convs_all_levels[0](features[0])
        feature_add_all_level = torch.zeros_like(level0)
        feature_add_all_level += level0
        for i in range(1, self.num_levels):
            mask_feat = features[i]
            feature_add_all_level += self.convs_all_levels[i](mask_feat)
        mask_pred = self.conv_pred(feature_add_all_level)
        return mask_pred


class TinyFPN(nn.Module):
    def __init__(self, channels=8):
        super().__init__()
        self.stem = nn.Conv2d(3, channels, 3, stride=4, padding=1)
        self.downs = nn.ModuleList(nn.Conv2d(channels, channels, 3, stride=2, padding=1) for _ in range(3))

    def forward(self, x):
        feats = [self.stem(x)]
        for down in self.downs:
            feats.append(down(feats[-1]))
        return feats


def dice_loss(pred, target, eps=1e-5):
    pred = pred.sigmoid().flatten(1)
    target = target.flatten(1)
    inter = (pred * target).sum(1)
    return 1 - ((2 * inter + eps) / (pred.sum(1) + target.sum(1) + eps)).mean()


backbone, mask_head = TinyFPN(), MaskHead()
optimizer = torch.optim.SGD(list(backbone.parameters()) + list(mask_head.parameters()), lr=0.01, momentum=0.9)
images = torch.rand(2, 3, 64, 64)
gt_masks = (torch.rand(2, 8, 16, 16) > 0.5).float()

for it in range(4):
    mask_pred = mask_head(backbone(images))
    loss = dice_loss(mask_pred, gt_masks)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"iter {it}: mask loss {loss.item():.4f}")
