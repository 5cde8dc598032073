"""CSPDarknet-style residual blocks with ReLU-activated conv units (YOLOv4-pytorch layout)."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Convolutional(nn.Module):
    def __init__(self, c_in, c_out, k, activate="relu"):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, k, padding=k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c_out)
        self.act = nn.ReLU() if activate == "relu" else nn.Mish()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class CSPBlock(nn.Module):
    def __init__(self, channels, hidden):
        super().__init__()
        self.block = nn.Sequential(Convolutional(channels, hidden, 1), Convolutional(hidden, channels, 3))

    def forward(self, x):
        residual = x
        out = self.block(x)
        out = out + residual
        return out


model = nn.Sequential(Convolutional(3, 8, 3), CSPBlock(8, 4), CSPBlock(8, 4),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
criterion = nn.CrossEntropyLoss()
imgs, labels = torch.randn(8, 3, 16, 16), torch.randint(0, 3, (8,))

for step in range(3):
    loss = criterion(model(imgs), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
