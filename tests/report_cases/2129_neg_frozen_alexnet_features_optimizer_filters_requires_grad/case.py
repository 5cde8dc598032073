"""Fine-tuning a "pretrained" AlexNet-like network: the feature extractor's
parameters get requires_grad = False, the classifier is replaced afterwards,
and the optimizer receives only filter(lambda p: p.requires_grad, ...).
Random tensors stand in for the pretrained weights and the images."""
import argparse

import torch
import torch.nn as nn


class AlexNetTiny(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=5, stride=2, padding=2),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=2),
            nn.Conv2d(16, 32, kernel_size=3, padding=1),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=2),
        )
        self.classifier = nn.Sequential(
            nn.Dropout(),
            nn.Linear(32 * 4 * 4, 64),
            nn.ReLU(inplace=True),
            nn.Linear(64, num_classes),
        )

    def forward(self, x):
        x = self.features(x)
        x = x.view(x.size(0), 32 * 4 * 4)
        return self.classifier(x)


def build_model(num_classes):
    model = AlexNetTiny(num_classes=1000)          # "pretrained" on 1000 classes
    for param in model.parameters():
        param.requires_grad = False
    model.classifier[-1] = nn.Linear(64, num_classes)   # new layer requires grad
    for param in model.classifier.parameters():
        param.requires_grad = True
    return model


def validate(model, loader, criterion):
    model.eval()
    total, correct, loss_sum = 0, 0, 0.0
    with torch.no_grad():
        for images, target in loader:
            output = model(images)
            loss_sum += criterion(output, target).item() * len(target)
            correct += (output.argmax(1) == target).sum().item()
            total += len(target)
    return loss_sum / total, correct / total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=0.01)
    args = parser.parse_args()

    torch.manual_seed(0)
    model = build_model(num_classes=4)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()),
                                lr=args.lr, momentum=0.9, weight_decay=1e-4)
    train_loader = [(torch.randn(6, 3, 32, 32), torch.randint(0, 4, (6,))) for _ in range(3)]
    val_loader = [(torch.randn(6, 3, 32, 32), torch.randint(0, 4, (6,)))]
    n_trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"trainable parameters: {n_trainable}")

    for epoch in range(args.epochs):
        model.train()
        for images, target in train_loader:
            output = model(images)
            loss = criterion(output, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        val_loss, val_acc = validate(model, val_loader, criterion)
        print(f"epoch {epoch}: train loss {loss.item():.4f} val loss {val_loss:.4f} acc {val_acc:.2f}")


if __name__ == "__main__":
    main()
