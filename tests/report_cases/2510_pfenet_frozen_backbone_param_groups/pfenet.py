import torch
import torch.nn as nn
import torch.nn.functional as F


def Weighted_GAP(supp_feat, mask):
    supp_feat = supp_feat * mask
    feat_h, feat_w = supp_feat.shape[-2:]
    area = F.avg_pool2d(mask, (feat_h, feat_w)) * feat_h * feat_w + 0.0005
    return F.avg_pool2d(input=supp_feat, kernel_size=supp_feat.shape[-2:]) * feat_h * feat_w / area


class PFENet(nn.Module):
    def __init__(self, classes=2, reduce_dim=16):
        super(PFENet, self).__init__()
        self.criterion = nn.CrossEntropyLoss(ignore_index=255)
        self.layer0 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True))
        self.layer1 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True))
        self.layer2 = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True))
        self.layer3 = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True))
        self.layer4 = nn.Sequential(nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(inplace=True))
        for layer in [self.layer0, self.layer1, self.layer2, self.layer3, self.layer4]:
            for p in layer.parameters():
                p.requires_grad = False

        fea_dim = 32
        self.down_query = nn.Sequential(nn.Conv2d(fea_dim, reduce_dim, 1, bias=False), nn.ReLU(inplace=True), nn.Dropout2d(p=0.5))
        self.down_supp = nn.Sequential(nn.Conv2d(fea_dim, reduce_dim, 1, bias=False), nn.ReLU(inplace=True), nn.Dropout2d(p=0.5))
        self.init_merge = nn.Sequential(nn.Conv2d(reduce_dim * 2 + 1, reduce_dim, 1, bias=False), nn.ReLU(inplace=True))
        self.res1 = nn.Sequential(nn.Conv2d(reduce_dim, reduce_dim, 3, padding=1, bias=False), nn.ReLU(inplace=True))
        self.cls = nn.Sequential(nn.Conv2d(reduce_dim, reduce_dim, 3, padding=1, bias=False), nn.ReLU(inplace=True),
                                 nn.Conv2d(reduce_dim, classes, 1))

    def backbone(self, x):
        f0 = self.layer0(x)
        f1 = self.layer1(f0)
        f2 = self.layer2(f1)
        f3 = self.layer3(f2)
        return f2, f3

    def forward(self, x, s_x, s_y, y=None):
        with torch.no_grad():
            query_feat_2, query_feat_3 = self.backbone(x)
            query_feat_4 = self.layer4(query_feat_3)
        query_feat = self.down_query(torch.cat([query_feat_3, query_feat_2], 1)[:, :32])

        mask = (s_y == 1).float().unsqueeze(1)
        with torch.no_grad():
            supp_feat_2, supp_feat_3 = self.backbone(s_x)
            mask_small = F.interpolate(mask, size=supp_feat_3.shape[-2:], mode='bilinear', align_corners=True)
            supp_feat_4 = self.layer4(supp_feat_3 * mask_small)
        supp_feat = self.down_supp(torch.cat([supp_feat_3, supp_feat_2], 1)[:, :32])
        supp_feat = Weighted_GAP(supp_feat, mask_small)

        # prior mask from high-level features (no learnable weights involved)
        q = query_feat_4.flatten(2)
        s = supp_feat_4.flatten(2)
        cos = torch.bmm(F.normalize(q, dim=1).transpose(1, 2), F.normalize(s, dim=1))
        prior = cos.max(2)[0].view(x.size(0), 1, *query_feat_4.shape[-2:])
        prior = (prior - prior.min()) / (prior.max() - prior.min() + 1e-7)

        merge = self.init_merge(torch.cat([query_feat, supp_feat.expand_as(query_feat), prior], 1))
        merge = self.res1(merge) + merge
        out = self.cls(merge)
        out = F.interpolate(out, size=x.shape[-2:], mode='bilinear', align_corners=True)
        if y is not None:
            return out.max(1)[1], self.criterion(out, y.long())
        return out
