"""Person re-ID baseline (ft_net + ClassBlock) trained as ID classification,
train.py style: train/val phases, warm-up, per-epoch running statistics."""
import argparse
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class ClassBlock(nn.Module):
    def __init__(self, input_dim, class_num, droprate=0.5, num_bottleneck=64):
        super().__init__()
        self.add_block = nn.Sequential(nn.Linear(input_dim, num_bottleneck), nn.BatchNorm1d(num_bottleneck),
                                       nn.Dropout(p=droprate))
        self.classifier = nn.Linear(num_bottleneck, class_num)

    def forward(self, x):
        return self.classifier(self.add_block(x))


class ft_net(nn.Module):
    def __init__(self, class_num):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
                                   nn.Conv2d(16, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU(inplace=True),
                                   nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.classifier = ClassBlock(32, class_num)

    def forward(self, x):
        return self.classifier(self.model(x))


def train_model(model, criterion, optimizer, scheduler, dataloaders, dataset_sizes, num_epochs, warm_epoch):
    since = time.time()
    warm_up = 0.1
    warm_iteration = round(dataset_sizes["train"] / dataloaders["train"].batch_size) * warm_epoch
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            model.train(phase == "train")
            running_loss, running_corrects = 0.0, 0.0
            for inputs, labels in dataloaders[phase]:
                now_batch_size = inputs.size(0)
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    _, preds = torch.max(outputs.data, 1)
                    loss = criterion(outputs, labels)
                    if epoch < warm_epoch and phase == "train":
                        warm_up = min(1.0, warm_up + 0.9 / warm_iteration)
                        loss = loss * warm_up
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                # statistics: loss is a batch mean, so multiply back by the batch size
                running_loss += loss.item() * now_batch_size
                running_corrects += float(torch.sum(preds == labels.data))
            epoch_loss = running_loss / dataset_sizes[phase]
            epoch_acc = running_corrects / dataset_sizes[phase]
            print(f"{phase} Loss: {epoch_loss:.4f} Acc: {epoch_acc:.4f}")
            if phase == "train":
                scheduler.step()
    print(f"Training complete in {time.time() - since:.1f}s")
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batchsize", type=int, default=16)
    parser.add_argument("--num_ids", type=int, default=10)
    parser.add_argument("--num_epochs", type=int, default=2)
    parser.add_argument("--warm_epoch", type=int, default=1)
    parser.add_argument("--lr", type=float, default=0.05)
    args = parser.parse_args()
    torch.manual_seed(0)
    ids = torch.randint(0, args.num_ids, (160,))
    images = torch.randn(160, 3, 32, 16) + ids.view(-1, 1, 1, 1).float() / args.num_ids
    data = {"train": TensorDataset(images[:128], ids[:128]), "val": TensorDataset(images[128:], ids[128:])}
    dataloaders = {k: DataLoader(v, batch_size=args.batchsize, shuffle=(k == "train")) for k, v in data.items()}
    dataset_sizes = {k: len(v) for k, v in data.items()}

    model = ft_net(args.num_ids)
    ignored_params = list(map(id, model.classifier.parameters()))
    base_params = filter(lambda p: id(p) not in ignored_params, model.parameters())
    optimizer_ft = torch.optim.SGD([{"params": base_params, "lr": 0.1 * args.lr},
                                    {"params": model.classifier.parameters(), "lr": args.lr}],
                                   weight_decay=5e-4, momentum=0.9, nesterov=True)
    exp_lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer_ft, step_size=40, gamma=0.1)
    train_model(model, nn.CrossEntropyLoss(), optimizer_ft, exp_lr_scheduler, dataloaders, dataset_sizes,
                args.num_epochs, args.warm_epoch)


if __name__ == "__main__":
    main()
