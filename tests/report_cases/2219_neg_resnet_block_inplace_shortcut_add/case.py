import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = 'cpu'


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, in_planes, planes, stride=1, shortcut_enabled=True, device='cuda'):
        super(BasicBlock, self).__init__()
        self.shortcut_enabled = shortcut_enabled
        self.conv1 = nn.Conv2d(in_planes, planes, kernel_size=3, stride=stride, padding=1, bias=False,
                               device=device)
        self.bn1 = nn.BatchNorm2d(planes, device=device)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, stride=1, padding=1, bias=False, device=device)
        self.bn2 = nn.BatchNorm2d(planes, device=device)

        if self.shortcut_enabled:
            self.shortcut = nn.Sequential()
            if stride != 1 or in_planes != self.expansion * planes:
                self.shortcut = nn.Sequential(
                    nn.Conv2d(in_planes, self.expansion * planes, kernel_size=1, stride=stride, bias=False,
                              device=device),
                    nn.BatchNorm2d(self.expansion * planes, device=device))

    def forward(self, x, verbose=0):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.shortcut_enabled:
            out += self.shortcut(x)
        out = F.relu(out)
        return out


class ResNet(nn.Module):
    def __init__(self, block, num_blocks, num_classes=10, shortcut_enabled=True):
        super(ResNet, self).__init__()
        self.in_planes = 16
        self.conv1 = nn.Conv2d(3, 16, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.layer1 = self._make_layer(block, 16, num_blocks[0], 1, shortcut_enabled)
        self.layer2 = self._make_layer(block, 32, num_blocks[1], 2, shortcut_enabled)
        self.layer3 = self._make_layer(block, 64, num_blocks[2], 2, shortcut_enabled)
        self.linear = nn.Linear(64 * block.expansion, num_classes)

    def _make_layer(self, block, planes, num_blocks, stride, shortcut_enabled):
        strides = [stride] + [1] * (num_blocks - 1)
        layers = []
        for stride in strides:
            layers.append(block(self.in_planes, planes, stride, shortcut_enabled, device=device))
            self.in_planes = planes * block.expansion
        return nn.Sequential(*layers)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.layer3(self.layer2(self.layer1(out)))
        out = F.adaptive_avg_pool2d(out, 1).flatten(1)
        return self.linear(out)


def cifar_like(n_batches, batch_size=16):
    for _ in range(n_batches):
        y = torch.randint(0, 10, (batch_size,))
        x = torch.randn(batch_size, 3, 16, 16) + y[:, None, None, None] * 0.1
        yield x, y


def run(shortcut_enabled):
    net = ResNet(BasicBlock, [1, 1, 1], shortcut_enabled=shortcut_enabled)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(2):
        net.train()
        for inputs, targets in cifar_like(4):
            optimizer.zero_grad()
            loss = criterion(net(inputs), targets)
            loss.backward()
            optimizer.step()
        net.eval()
        with torch.no_grad():
            correct = sum((net(x).argmax(1) == y).sum().item() for x, y in cifar_like(2))
        print(f"shortcut={shortcut_enabled} epoch {epoch} loss {loss.item():.4f} val correct {correct}/32")


if __name__ == '__main__':
    run(shortcut_enabled=True)
    run(shortcut_enabled=False)
