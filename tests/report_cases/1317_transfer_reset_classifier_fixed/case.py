"""Linear-probe style transfer: frozen pretrained backbone, new task head."""
import argparse
import logging

import torch
import torch.nn.functional as F

from model import create_model

logging.basicConfig(level=logging.INFO)
_logger = logging.getLogger("train")


def parse_args():
    parser = argparse.ArgumentParser("transfer")
    parser.add_argument("--model", default="tinynet")
    parser.add_argument("--num-classes", type=int, default=4)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--freeze-backbone", action="store_true", default=True)
    return parser.parse_args()


def build(args):
    model = create_model(args.model, pretrained=True)
    model.reset_classifier(args.num_classes)
    if args.freeze_backbone:
        for p in model.backbone.parameters():
            p.requires_grad = False
        model.backbone.eval()
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=args.lr, momentum=0.9, nesterov=True)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
    return model, optimizer, scheduler


def train_one_epoch(epoch, model, loader, optimizer):
    model.head.train()
    losses = []
    for images, target in loader:
        output = model(images)
        loss = F.cross_entropy(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    _logger.info("Train: %d  loss %.4f", epoch, sum(losses) / len(losses))
    return {"loss": sum(losses) / len(losses)}


def main():
    args = parse_args()
    torch.manual_seed(42)
    images = torch.randn(16, 3, 8, 8)
    targets = torch.randint(0, args.num_classes, (16,))
    loader = list(zip(images.split(args.batch_size), targets.split(args.batch_size)))
    model, optimizer, scheduler = build(args)
    for epoch in range(args.epochs):
        train_one_epoch(epoch, model, loader, optimizer)
        scheduler.step()


if __name__ == "__main__":
    main()
