"""Fine-tune a SimCLR-pretrained encoder on a small labelled subset (semi-supervised protocol)."""
import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class ResNetTiny(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1, bias=False), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
            nn.Conv2d(width, width * 2, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(width * 2),
            nn.ReLU(inplace=True),
            nn.Conv2d(width * 2, width * 4, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(width * 4),
            nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1),
        )
        self.out_dim = width * 4

    def forward(self, x):
        return self.features(x).flatten(1)


def parse_args():
    parser = argparse.ArgumentParser("simclr fine-tuning")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--num-classes", type=int, default=10)
    parser.add_argument("--backbone-lr", type=float, default=0.01)
    parser.add_argument("--head-lr", type=float, default=0.1)
    parser.add_argument("--steps-per-epoch", type=int, default=3)
    return parser.parse_args()


def accuracy(logits, target):
    return (logits.argmax(1) == target).float().mean().item() * 100


def main():
    args = parse_args()
    torch.manual_seed(0)
    backbone = ResNetTiny()
    # backbone.load_state_dict(torch.load("simclr_pretrained.pth"))  # weights from the pre-training run
    classifier = nn.Linear(backbone.out_dim, args.num_classes)

    backbone_opt = torch.optim.SGD(backbone.parameters(), lr=args.backbone_lr, momentum=0.9, nesterov=True)
    head_opt = torch.optim.SGD(classifier.parameters(), lr=args.head_lr, momentum=0.9, nesterov=True)

    for epoch in range(args.epochs):
        backbone.train()
        classifier.train()
        t0 = time.time()
        top1 = []
        for step in range(args.steps_per_epoch):
            images = torch.randn(args.batch_size, 3, 16, 16)
            target = torch.randint(0, args.num_classes, (args.batch_size,))

            with torch.no_grad():
                feats = backbone(images)
            logits = classifier(feats)
            loss = F.cross_entropy(logits, target)

            backbone_opt.zero_grad()
            head_opt.zero_grad()
            loss.backward()
            backbone_opt.step()
            head_opt.step()
            top1.append(accuracy(logits, target))
        print(f"Epoch {epoch}: loss {loss.item():.3f} top1 {sum(top1) / len(top1):.1f} ({time.time() - t0:.2f}s)")


if __name__ == "__main__":
    main()
