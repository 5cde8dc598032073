"""Feature-extraction fine-tuning of a 1-D CNN encoder on a new set of activity labels."""
import argparse

import torch
import torch.nn as nn


class SensorEncoder(nn.Module):
    """Encoder 'pretrained' on a source activity-recognition task."""

    def __init__(self, in_channels=3, width=16, num_classes=6):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(in_channels, width, 5, padding=2), nn.BatchNorm1d(width), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2), nn.BatchNorm1d(width), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
        )
        self.fc = nn.Linear(width, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def set_parameter_requires_grad(model, feature_extracting):
    if feature_extracting:
        for param in model.parameters():
            param.requires_grad = False


def initialize_model(num_classes, feature_extract):
    model_ft = SensorEncoder()
    set_parameter_requires_grad(model_ft, feature_extract)
    num_ftrs = model_ft.fc.in_features
    model_ft.fc = nn.Linear(num_ftrs, num_classes)
    return model_ft


def train_model(model, batches, criterion, optimizer, num_epochs):
    for epoch in range(num_epochs):
        model.train()
        running_loss, running_corrects = 0.0, 0
        for inputs, labels in batches:
            optimizer.zero_grad()
            outputs = model(inputs)
            loss = criterion(outputs, labels)
            _, preds = torch.max(outputs, 1)
            loss.backward()
            optimizer.step()
            running_loss += loss.item() * inputs.size(0)
            running_corrects += torch.sum(preds == labels).item()
        n = sum(len(b[1]) for b in batches)
        print(f"epoch {epoch}: loss {running_loss / n:.4f} acc {running_corrects / n:.3f}")
    return model


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_classes", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args([])

    torch.manual_seed(0)
    batches = [(torch.randn(8, 3, 32), torch.randint(0, args.num_classes, (8,))) for _ in range(2)]
    model_ft = initialize_model(args.num_classes, feature_extract=True)

    params_to_update = [p for p in model_ft.parameters() if p.requires_grad] or list(model_ft.fc.parameters())
    optimizer_ft = torch.optim.SGD(params_to_update, lr=0.001, momentum=0.9)
    train_model(model_ft, batches, nn.CrossEntropyLoss(), optimizer_ft, num_epochs=args.epochs)
