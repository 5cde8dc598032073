import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GlobalContextFusion(nn.Module):
    """Fuse RGB and depth features, then add back a global-context vector."""

    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels * 2, channels, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU(inplace=True)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.context = nn.Conv2d(channels, channels, 1)

    def forward(self, rgb, depth):
        out = self.conv(torch.cat([rgb, depth], dim=1))
        out = self.bn(out)
        out = self.relu(out)
        pool = self.context(self.gap(rgb))
        out = out + pool
        return out


class Malleable25DNet(nn.Module):
    def __init__(self, num_classes=5, c=16):
        super().__init__()
        self.rgb_stem = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(inplace=True))
        self.depth_stem = nn.Sequential(nn.Conv2d(1, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(inplace=True))
        self.fuse1 = GlobalContextFusion(c)
        self.down = nn.Sequential(nn.Conv2d(c, c, 3, stride=2, padding=1), nn.BatchNorm2d(c), nn.ReLU(inplace=True))
        self.depth_down = nn.AvgPool2d(2)
        self.depth_proj = nn.Conv2d(1, c, 1)
        self.fuse2 = GlobalContextFusion(c)
        self.classifier = nn.Conv2d(c, num_classes, 1)

    def forward(self, rgb, depth):
        x = self.fuse1(self.rgb_stem(rgb), self.depth_stem(depth))
        x = self.down(x)
        d = self.depth_proj(self.depth_down(depth))
        x = self.fuse2(x, d)
        logits = self.classifier(x)
        return F.interpolate(logits, size=rgb.shape[-2:], mode='bilinear', align_corners=False)


model = Malleable25DNet()
criterion = nn.CrossEntropyLoss(ignore_index=255)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)

model.train()
for epoch in range(2):
    for it in range(3):
        rgb = torch.randn(2, 3, 24, 24)
        depth = torch.rand(2, 1, 24, 24)
        label = torch.randint(0, 5, (2, 24, 24))
        loss = criterion(model(rgb, depth), label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print('epoch', epoch, 'loss', loss.item())
