"""Small residual CNN on random 8x8 'images' (CIFAR-style recipe, shrunk)."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {
    "channels": 8,
    "num_blocks": 2,
    "num_classes": 5,
    "batch_size": 16,
    "lr": 0.05,
    "momentum": 0.9,
    "weight_decay": 5e-4,
    "steps": 3,
}


def conv3x3(in_planes, out_planes, stride=1):
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=1, bias=False)


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU()
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample

    def forward(self, x):
        identity = x

        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)

        out = self.conv2(out)
        out = self.bn2(out)

        if self.downsample is not None:
            identity = self.downsample(x)

        out += identity
        out = self.relu(out)
        return out


class SmallResNet(nn.Module):
    def __init__(self, channels, num_blocks, num_classes):
        super().__init__()
        self.stem = nn.Sequential(conv3x3(3, channels), nn.BatchNorm2d(channels), nn.ReLU())
        self.layer1 = nn.Sequential(*[BasicBlock(channels, channels) for _ in range(num_blocks)])
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(channels, num_classes)

    def forward(self, x):
        x = self.stem(x)
        x = self.layer1(x)
        x = torch.flatten(self.pool(x), 1)
        return self.fc(x)


def train(cfg):
    model = SmallResNet(cfg["channels"], cfg["num_blocks"], cfg["num_classes"])
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=cfg["momentum"],
                                weight_decay=cfg["weight_decay"])
    meter = {"loss": 0.0, "correct": 0, "seen": 0}
    model.train()
    for step in range(cfg["steps"]):
        images = torch.randn(cfg["batch_size"], 3, 8, 8)
        targets = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],))
        t0 = time.time()
        logits = model(images)
        loss = F.cross_entropy(logits, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        meter["loss"] += loss.item() * images.size(0)
        meter["correct"] += (logits.argmax(1) == targets).sum().item()
        meter["seen"] += images.size(0)
        print(f"step {step} loss {loss.item():.3f} ({time.time() - t0:.3f}s)")
    return meter


if __name__ == "__main__":
    torch.manual_seed(0)
    stats = train(CONFIG)
    print("train acc", stats["correct"] / stats["seen"])
