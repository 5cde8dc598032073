"""Spike-element-wise (SEW) residual SNN classifier on static images encoded over T steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from neuron import LIFNode, reset_net

torch.manual_seed(0)
T = 4


class SEWBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), LIFNode())

    def forward(self, s):
        return self.conv(s) + s  # ADD connect


class SEWNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), LIFNode())
        self.block = SEWBlock(8)
        self.fc = nn.Linear(8, n_classes)

    def forward(self, img):
        out = 0.0
        for t in range(T):
            s = self.block(self.stem(img))
            out = out + self.fc(F.adaptive_avg_pool2d(s, 1).flatten(1))
        return out / T


def fit_one_epoch(net, optimizer, loader):
    net.train()
    for images, labels in loader:
        reset_net(net)  # every sample starts from resting potential
        logits = net(images)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    net = SEWNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    loader = [(torch.rand(4, 1, 8, 8), torch.randint(0, 4, (4,))) for _ in range(3)]
    for epoch in range(2):
        print("epoch", epoch, "loss", round(fit_one_epoch(net, optimizer, loader), 4))
