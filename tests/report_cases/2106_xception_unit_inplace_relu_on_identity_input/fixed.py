"""Xception-style classifier (imgclsmob layout: DwsConvBlock / XceptionUnit /
Xception) trained on random 32x32 images.
Fixed: the ReLU at the head of each DwsConvBlock is not in-place."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DwsConvBlock(nn.Module):
    """ReLU -> depthwise conv -> pointwise conv -> BN."""

    def __init__(self, in_channels, out_channels, activate):
        super().__init__()
        self.activate = activate
        if self.activate:
            self.activ = nn.ReLU(inplace=False)
        self.dw = nn.Conv2d(in_channels, in_channels, 3, 1, 1, groups=in_channels, bias=False)
        self.pw = nn.Conv2d(in_channels, out_channels, 1, bias=False)
        self.bn = nn.BatchNorm2d(out_channels)

    def forward(self, x):
        if self.activate:
            x = self.activ(x)
        return self.bn(self.pw(self.dw(x)))


class XceptionUnit(nn.Module):
    def __init__(self, in_channels, out_channels, strides, reps, start_with_relu=True):
        super().__init__()
        self.resize_identity = (in_channels != out_channels) or (strides != 1)
        if self.resize_identity:
            self.identity_conv = nn.Sequential(
                nn.Conv2d(in_channels, out_channels, 1, strides, bias=False),
                nn.BatchNorm2d(out_channels),
            )
        body = []
        for i in range(reps):
            cin = in_channels if i == 0 else out_channels
            body.append(DwsConvBlock(cin, out_channels, activate=(i != 0) or start_with_relu))
        if strides != 1:
            body.append(nn.MaxPool2d(3, strides, 1))
        self.body = nn.Sequential(*body)

    def forward(self, x):
        if self.resize_identity:
            identity = self.identity_conv(x)
        else:
            identity = x
        x = self.body(x)
        x = x + identity
        return x


class Xception(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.init_block = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
        )
        self.stage1 = XceptionUnit(16, 32, strides=2, reps=2, start_with_relu=False)
        self.stage2 = XceptionUnit(32, 48, strides=2, reps=2)
        self.stage3 = XceptionUnit(48, 48, strides=1, reps=2)
        self.final_activ = nn.ReLU(inplace=True)
        self.output = nn.Linear(48, num_classes)

    def forward(self, x):
        x = self.init_block(x)
        x = self.stage3(self.stage2(self.stage1(x)))
        x = self.final_activ(x)
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.output(x)


def train(model, optimizer, criterion, train_loader):
    model.train()
    for batch_idx, (images, target) in enumerate(train_loader):
        output = model(images)
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"batch {batch_idx}: loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    loader = [(torch.randn(4, 3, 32, 32), torch.randint(0, 5, (4,))) for _ in range(4)]
    net = Xception(num_classes=5)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    train(net, opt, nn.CrossEntropyLoss(), loader)
