import argparse

import torch
import torch.nn as nn

from builder import MoCo


class SmallConvNet(nn.Module):
    def __init__(self, num_classes=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.fc(self.body(x))


def augment(x):
    flip = torch.rand(x.size(0), 1, 1, 1) < 0.5
    x = torch.where(flip, x.flip(3), x)
    return (x + 0.1 * torch.randn_like(x)).clamp(0, 1)


def main():
    parser = argparse.ArgumentParser(description="MoCo pre-training (toy)")
    parser.add_argument("--moco-dim", default=16, type=int)
    parser.add_argument("--moco-k", default=32, type=int)
    parser.add_argument("--moco-m", default=0.999, type=float)
    parser.add_argument("--moco-t", default=0.2, type=float)
    parser.add_argument("--lr", default=0.03, type=float)
    parser.add_argument("--batch-size", default=8, type=int)
    parser.add_argument("--iters", default=4, type=int)
    args = parser.parse_args([])

    torch.manual_seed(0)
    model = MoCo(SmallConvNet, args.moco_dim, args.moco_k, args.moco_m, args.moco_t)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), args.lr, momentum=0.9, weight_decay=1e-4)

    model.train()
    for i in range(args.iters):
        images = torch.rand(args.batch_size, 3, 16, 16)
        output, target = model(im_q=augment(images), im_k=augment(images))
        loss = criterion(output, target)
        acc1 = (output.argmax(1) == target).float().mean().item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {i}: loss {loss.item():.4f} acc@1 {acc1:.3f}")


if __name__ == "__main__":
    main()
