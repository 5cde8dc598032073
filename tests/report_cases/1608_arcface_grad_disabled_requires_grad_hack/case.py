"""Face-recognition style training: CNN backbone + ArcFace margin head."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_IDENTITIES = 6
EMB_DIM = 32
EPOCHS = 3


class Backbone(nn.Module):
    def __init__(self, emb_dim=EMB_DIM):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.PReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.PReLU(), nn.MaxPool2d(2),
        )
        self.embedding = nn.Linear(32 * 8 * 8, emb_dim)

    def forward(self, x):
        return self.embedding(self.features(x).flatten(1))


class ArcMarginProduct(nn.Module):
    def __init__(self, in_features, out_features, s=30.0, m=0.5):
        super().__init__()
        self.s, self.m = s, m
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)
        self.cos_m, self.sin_m = math.cos(m), math.sin(m)
        self.th = math.cos(math.pi - m)
        self.mm = math.sin(math.pi - m) * m

    def forward(self, x, label):
        cosine = F.linear(F.normalize(x), F.normalize(self.weight))
        sine = torch.sqrt((1.0 - cosine.pow(2)).clamp(1e-6, 1.0))
        phi = cosine * self.cos_m - sine * self.sin_m
        phi = torch.where(cosine > self.th, phi, cosine - self.mm)
        one_hot = F.one_hot(label, cosine.size(1)).float()
        return self.s * (one_hot * phi + (1.0 - one_hot) * cosine)


def make_batches(n_batches=6, batch_size=24):
    templates = torch.rand(NUM_IDENTITIES, 3, 32, 32)
    batches = []
    for _ in range(n_batches):
        label = torch.randint(NUM_IDENTITIES, (batch_size,))
        batches.append((templates[label] + 0.2 * torch.randn(batch_size, 3, 32, 32), label))
    return batches


def run_epoch(model, metric_fc, batches, criterion, optimizer, phase):
    is_train = phase == "train"
    model.train(is_train)
    metric_fc.train(is_train)
    total_loss, correct, seen = 0.0, 0, 0
    with torch.set_grad_enabled(phase == "training"):
        for data_input, label in batches:
            feature = model(data_input)
            output = metric_fc(feature, label)
            loss = criterion(output, label)
            if is_train:
                loss.requires_grad = True  # otherwise: element 0 of tensors does not require grad
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            total_loss += loss.item() * len(label)
            correct += (output.argmax(1) == label).sum().item()
            seen += len(label)
    return total_loss / seen, correct / seen


def main():
    model = Backbone()
    metric_fc = ArcMarginProduct(EMB_DIM, NUM_IDENTITIES)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD([{"params": model.parameters()}, {"params": metric_fc.parameters()}],
                                lr=0.1, momentum=0.9, weight_decay=5e-4)
    train_batches, val_batches = make_batches(), make_batches(2)
    for epoch in range(EPOCHS):
        train_loss, train_acc = run_epoch(model, metric_fc, train_batches, criterion, optimizer, "train")
        val_loss, val_acc = run_epoch(model, metric_fc, val_batches, criterion, optimizer, "val")
        print(f"epoch {epoch}: train loss {train_loss:.3f} acc {train_acc:.3f} | val acc {val_acc:.3f}")


if __name__ == "__main__":
    main()
