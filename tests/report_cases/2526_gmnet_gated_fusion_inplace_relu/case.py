import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GatedFusion(nn.Module):
    """Multi-modal fusion: a sigmoid gate from both streams re-weights each stream."""

    def __init__(self, c):
        super().__init__()
        self.gate = nn.Conv2d(2 * c, 2, 3, padding=1)
        self.relu = nn.ReLU(inplace=True)
        self.out = nn.Sequential(nn.Conv2d(c, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(inplace=True))

    def forward(self, rgb, th):
        g = torch.sigmoid(self.gate(torch.cat([rgb, th], dim=1)))
        fused = rgb * g[:, :1] + th * g[:, 1:]
        rgb = self.relu(rgb)
        th = self.relu(th)
        return self.out(fused + rgb + th)


class Stream(nn.Module):
    def __init__(self, in_ch, c):
        super().__init__()
        self.conv1 = nn.Conv2d(in_ch, c, 3, padding=1)
        self.conv2 = nn.Conv2d(c, c, 3, stride=2, padding=1)

    def forward(self, x):
        return self.conv2(F.relu(self.conv1(x)))


class GMNetLite(nn.Module):
    def __init__(self, num_classes=4, c=16):
        super().__init__()
        self.rgb = Stream(3, c)
        self.thermal = Stream(1, c)
        self.fusion = GatedFusion(c)
        self.semantic = nn.Conv2d(c, num_classes, 1)
        self.boundary = nn.Conv2d(c, 1, 1)

    def forward(self, rgb, thermal):
        f = self.fusion(self.rgb(rgb), self.thermal(thermal))
        size = rgb.shape[-2:]
        return (F.interpolate(self.semantic(f), size=size, mode='bilinear', align_corners=False),
                F.interpolate(self.boundary(f), size=size, mode='bilinear', align_corners=False))


model = GMNetLite()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for it in range(5):
    rgb, thermal = torch.randn(2, 3, 20, 20), torch.randn(2, 1, 20, 20)
    label = torch.randint(0, 4, (2, 20, 20))
    edge = (torch.rand(2, 1, 20, 20) > 0.9).float()
    sem, bnd = model(rgb, thermal)
    loss = F.cross_entropy(sem, label) + F.binary_cross_entropy_with_logits(bnd, edge)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print('iter %d  loss %.4f' % (it, loss.item()))
