"""Small ResNet-like classifier assembled from config blocks; the stem ends in an in-place
ReLU and the first stage starts with its own in-place activation."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def conv_bn_act(cin, cout, stride=1, act=True):
    layers = [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout)]
    if act:
        layers.append(nn.ReLU(inplace=True))
    return nn.Sequential(*layers)


class Stage(nn.Module):
    """Pre-activation stage: activation first, then two convs."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.pre_act = nn.ReLU(inplace=True)
        self.conv1 = conv_bn_act(cin, cout, stride)
        self.conv2 = conv_bn_act(cout, cout, act=False)
        self.shortcut = nn.Conv2d(cin, cout, 1, stride, bias=False)

    def forward(self, x):
        x = self.pre_act(x)
        return self.conv2(self.conv1(x)) + self.shortcut(x)


class Net(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.stem = conv_bn_act(3, 16)
        self.stage1 = Stage(16, 32, 2)
        self.stage2 = Stage(32, 32, 1)
        self.head = nn.Linear(32, num_classes)

    def forward(self, x):
        x = self.stem(x)
        x = self.stage1(x)
        x = self.stage2(x)
        return self.head(F.adaptive_avg_pool2d(x, 1).flatten(1))


model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
images, labels = torch.randn(16, 3, 16, 16), torch.randint(0, 5, (16,))
for it in range(3):
    loss = F.cross_entropy(model(images), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print("iter", it, "loss", round(loss.item(), 4))
