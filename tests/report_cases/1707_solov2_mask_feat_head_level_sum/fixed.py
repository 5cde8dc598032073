import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConvModule(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size=3, padding=1, num_groups=8):
        super(ConvModule, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=padding, bias=False)
        self.gn = nn.GroupNorm(num_groups, out_channels)
        self.activate = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.activate(self.gn(self.conv(x)))


class MaskFeatHead(nn.Module):
    def __init__(self, in_channels, out_channels, start_level, end_level, num_classes):
        super(MaskFeatHead, self).__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.start_level = start_level
        self.end_level = end_level
        self.num_classes = num_classes

        self.convs_all_levels = nn.ModuleList()
        for i in range(self.start_level, self.end_level + 1):
            convs_per_level = nn.Sequential()
            if i == 0:
                convs_per_level.add_module('conv' + str(i), ConvModule(self.in_channels, self.out_channels))
                self.convs_all_levels.append(convs_per_level)
                continue
            for j in range(i):
                chn = self.in_channels + 2 if (j == 0 and i == 3) else (self.in_channels if j == 0 else self.out_channels)
                convs_per_level.add_module('conv' + str(j), ConvModule(chn, self.out_channels))
                convs_per_level.add_module('upsample' + str(j),
                                           nn.Upsample(scale_factor=2, mode='bilinear', align_corners=False))
            self.convs_all_levels.append(convs_per_level)

        self.conv_pred = nn.Sequential(
            nn.Conv2d(self.out_channels, self.num_classes, 1, padding=0),
            nn.GroupNorm(4, self.num_classes),
            nn.ReLU(inplace=True),
        )

    def forward(self, inputs):
        assert len(inputs) == (self.end_level - self.start_level + 1)

        feature_add_all_level = self.convs_all_levels[0](inputs[0])
        for i in range(1, len(inputs)):
            input_p = inputs[i]
            if i == 3:
                x_range = torch.linspace(-1, 1, input_p.shape[-1])
                y_range = torch.linspace(-1, 1, input_p.shape[-2])
                y, x = torch.meshgrid(y_range, x_range, indexing='ij')
                y = y.expand([input_p.shape[0], 1, -1, -1])
                x = x.expand([input_p.shape[0], 1, -1, -1])
                coord_feat = torch.cat([x, y], 1)
                input_p = torch.cat([input_p, coord_feat], 1)

            feature_add_all_level = feature_add_all_level + self.convs_all_levels[i](input_p)

        feature_pred = self.conv_pred(feature_add_all_level)
        return feature_pred


class TinyFPN(nn.Module):
    def __init__(self, out_channels=16):
        super().__init__()
        self.stages = nn.ModuleList([
            nn.Conv2d(3, out_channels, 3, stride=4, padding=1),
            nn.Conv2d(out_channels, out_channels, 3, stride=2, padding=1),
            nn.Conv2d(out_channels, out_channels, 3, stride=2, padding=1),
            nn.Conv2d(out_channels, out_channels, 3, stride=2, padding=1),
        ])

    def forward(self, x):
        feats = []
        for stage in self.stages:
            x = F.relu(stage(x))
            feats.append(x)
        return feats


def dice_loss(input, target):
    input = input.contiguous().view(input.size()[0], -1)
    target = target.contiguous().view(target.size()[0], -1).float()
    a = torch.sum(input * target, 1)
    b = torch.sum(input * input, 1) + 0.001
    c = torch.sum(target * target, 1) + 0.001
    d = (2 * a) / (b + c)
    return 1 - d


def dynamic_mask_kernels(mask_feats, kernels):
    # kernels: (B, K, C) predicted 1x1 conv weights per instance
    return torch.einsum('bchw,bkc->bkhw', mask_feats, kernels).sigmoid()


if __name__ == '__main__':
    backbone = TinyFPN(16)
    mask_head = MaskFeatHead(in_channels=16, out_channels=16, start_level=0, end_level=3, num_classes=32)
    kernel_branch = nn.Linear(16, 3 * 32)
    params = list(backbone.parameters()) + list(mask_head.parameters()) + list(kernel_branch.parameters())
    optimizer = torch.optim.SGD(params, lr=0.01, momentum=0.9, weight_decay=1e-4)

    for step in range(6):
        imgs = torch.randn(2, 3, 64, 64)
        gt_masks = (torch.rand(2, 3, 16, 16) > 0.7).float()
        feats = backbone(imgs)
        mask_feats = mask_head(feats)
        kernels = kernel_branch(feats[-1].mean(dim=(2, 3))).view(2, 3, 32)
        pred_masks = dynamic_mask_kernels(mask_feats, kernels)
        loss_ins = dice_loss(pred_masks.flatten(0, 1), gt_masks.flatten(0, 1)).mean() * 3.0
        optimizer.zero_grad()
        loss_ins.backward()
        optimizer.step()
        print('step', step, 'loss_ins', round(loss_ins.item(), 4))
