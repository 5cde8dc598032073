"""Semantic-segmentation style train/validate loop with a plateau scheduler."""
import torch
import torch.nn as nn
import torch.nn.functional as F

NUM_CLASSES = 4


class SegNet(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
                                 nn.Conv2d(width, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU())
        self.cls = nn.Conv2d(width, NUM_CLASSES, 1)

    def forward(self, x):
        return self.cls(self.enc(x))


def loader(n, batch=4, size=12, seed=None):
    g = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(n):
        x = torch.randn(batch, 3, size, size, generator=g)
        y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long() * 2
        yield x, y


def train_epoch(model, optimizer, criterion, data):
    model.train()
    for x, y in data:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def validate(model, criterion, data):
    model.eval()
    loss_meter = torch.zeros(())
    count = 0
    for x, y in data:
        output = model(x)
        loss = criterion(output, y)
        loss_meter.add_(loss * x.size(0))
        count += x.size(0)
    return loss_meter / count


def main(epochs=4):
    model = SegNet()
    criterion = nn.CrossEntropyLoss(ignore_index=255)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=1)
    val_history = []
    for epoch in range(epochs):
        train_loss = train_epoch(model, optimizer, criterion, loader(4))
        val_loss = validate(model, criterion, loader(3, seed=123))
        val_history.append(val_loss)
        scheduler.step(val_loss)
        best = min(val_history)
        print(f"epoch {epoch} train {train_loss:.4f} val {float(val_loss):.4f} best {float(best):.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
