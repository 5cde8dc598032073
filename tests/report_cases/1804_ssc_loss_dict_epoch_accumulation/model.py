import torch
import torch.nn as nn
import torch.nn.functional as F


class SegmentationHead(nn.Module):
    def __init__(self, in_ch, mid_ch, n_classes, dilations=(1, 2)):
        super().__init__()
        self.conv0 = nn.Conv3d(in_ch, mid_ch, 3, padding=1)
        self.branches = nn.ModuleList(
            [nn.Conv3d(mid_ch, mid_ch, 3, padding=d, dilation=d) for d in dilations])
        self.cls = nn.Conv3d(mid_ch, n_classes, 3, padding=1)

    def forward(self, x):
        x = F.relu(self.conv0(x))
        y = sum(F.relu(b(x)) for b in self.branches)
        return self.cls(F.relu(y + x))


class SSCNet(nn.Module):
    """BEV 2D UNet over height-as-channels + 3D segmentation head (LMSCNet-like)."""

    def __init__(self, n_classes, grid=(16, 4, 16), base=16):
        super().__init__()
        self.n_classes = n_classes
        self.H = grid[1]
        self.enc1 = nn.Sequential(nn.Conv2d(self.H, base, 3, padding=1), nn.ReLU())
        self.enc2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(base, base * 2, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(base * 2, base, 2, stride=2)
        self.out_1_2 = nn.Conv2d(base * 2, n_classes * self.H // 2, 3, padding=1)
        self.dec = nn.Sequential(nn.Conv2d(base * 2, self.H * 2, 3, padding=1), nn.ReLU())
        self.head = SegmentationHead(2, 8, n_classes)

    def forward(self, occupancy):
        # occupancy: [B, X, Y(height), Z]
        x = occupancy.permute(0, 2, 1, 3)
        e1 = self.enc1(x)
        e2 = self.enc2(e1)
        b, _, w, d = e2.shape
        out_1_2 = self.out_1_2(e2).view(b, self.n_classes, self.H // 2, w, d).permute(0, 1, 3, 2, 4)
        y = self.dec(torch.cat([self.up(e2), e1], dim=1))
        y = y.view(b, 2, self.H, y.shape[-2], y.shape[-1]).permute(0, 1, 3, 2, 4)
        out_1_1 = self.head(y)
        return {"pred_semantic_1_1": out_1_1, "pred_semantic_1_2": out_1_2}
