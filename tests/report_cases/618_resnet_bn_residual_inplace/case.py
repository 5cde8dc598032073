# torchvision-style BasicBlock: the in-place residual add happens on the
# BatchNorm output (BN does not need its output for backward) and the
# in-place ReLU comes after it.
import torch
import torch.nn as nn


class BasicBlock(nn.Module):
    def __init__(self, planes):
        super().__init__()
        self.conv1 = nn.Conv2d(planes, planes, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(planes, planes, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)

    def forward(self, x):
        identity = x
        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)
        out = self.conv2(out)
        out = self.bn2(out)
        out += identity
        out = self.relu(out)
        return out


class TinyResNet(nn.Module):
    def __init__(self, planes=8, n_classes=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, planes, 3, padding=1, bias=False),
                                  nn.BatchNorm2d(planes), nn.ReLU(inplace=True))
        self.layer1 = nn.Sequential(BasicBlock(planes), BasicBlock(planes))
        self.fc = nn.Linear(planes, n_classes)

    def forward(self, x):
        x = self.layer1(self.stem(x))
        return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))


torch.manual_seed(0)
model = TinyResNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
images, labels = torch.randn(4, 3, 12, 12), torch.randint(0, 5, (4,))
for step in range(3):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(images), labels)
    loss.backward()
    optimizer.step()
    print(step, loss.item())
