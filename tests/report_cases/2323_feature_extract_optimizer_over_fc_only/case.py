"""Fine-tune a "pretrained" CNN as a fixed feature extractor (torchvision
finetuning tutorial, feature_extract=True). Entry point; backbone in model.py.
"""
import argparse
import copy

import torch
import torch.nn as nn

from model import pretrained_resnet


def set_parameter_requires_grad(model, feature_extracting):
    if feature_extracting:
        for param in model.parameters():
            param.requires_grad = False


def initialize_model(num_classes, feature_extract):
    model_ft = pretrained_resnet()
    set_parameter_requires_grad(model_ft, feature_extract)
    num_ftrs = model_ft.fc.in_features
    model_ft.fc = nn.Linear(num_ftrs, num_classes)
    return model_ft


def train_model(model, dataloaders, criterion, optimizer, num_epochs=2):
    best_model_wts = copy.deepcopy(model.state_dict())
    best_acc = 0.0
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            model.train() if phase == "train" else model.eval()
            running_loss, running_corrects, n = 0.0, 0, 0
            for inputs, labels in dataloaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    loss = criterion(outputs, labels)
                    _, preds = torch.max(outputs, 1)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_loss += loss.item() * inputs.size(0)
                running_corrects += torch.sum(preds == labels.data).item()
                n += inputs.size(0)
            epoch_acc = running_corrects / n
            print(f"{epoch} {phase} Loss: {running_loss / n:.4f} Acc: {epoch_acc:.4f}")
            if phase == "val" and epoch_acc > best_acc:
                best_acc = epoch_acc
                best_model_wts = copy.deepcopy(model.state_dict())
    model.load_state_dict(best_model_wts)
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_classes", type=int, default=2)
    parser.add_argument("--num_epochs", type=int, default=2)
    parser.add_argument("--feature_extract", type=int, default=1)
    args = parser.parse_args()
    torch.manual_seed(0)
    model_ft = initialize_model(args.num_classes, bool(args.feature_extract))
    dataloaders = {phase: [(torch.randn(8, 3, 32, 32), torch.randint(0, args.num_classes, (8,)))
                           for _ in range(3)] for phase in ["train", "val"]}
    # Only the parameters of the reshaped final layer are being optimized
    optimizer_ft = torch.optim.SGD(model_ft.fc.parameters(), lr=0.001, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    train_model(model_ft, dataloaders, criterion, optimizer_ft, num_epochs=args.num_epochs)


if __name__ == "__main__":
    main()
