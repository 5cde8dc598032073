# Small residual CNN for 3-D-like patches (2-D here to stay tiny).
import torch
import torch.nn as nn


class ResidualBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(ch)
        self.relu = nn.ReLU()

    def forward(self, x):
        residual = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = self.relu(out)
        out = out + residual
        return out


class SegNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.stem = nn.Conv2d(1, ch, 3, padding=1)
        self.blocks = nn.Sequential(ResidualBlock(ch), ResidualBlock(ch))
        self.head = nn.Conv2d(ch, 1, 1)

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)))


torch.manual_seed(0)
net = SegNet()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
criterion = nn.BCEWithLogitsLoss()
images = torch.randn(4, 1, 16, 16)
masks = (torch.rand(4, 1, 16, 16) > 0.5).float()

for epoch in range(3):
    optimizer.zero_grad()
    logits = net(images)
    loss = criterion(logits, masks)
    loss.backward()
    optimizer.step()
    print("epoch", epoch, "loss", loss.item())
