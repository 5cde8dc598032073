"""Train a small classifier, then report clean and PGD-robust accuracy."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

EPS = 0.3
ALPHA = 0.1
PGD_STEPS = 5


class MLP(nn.Module):
    def __init__(self, in_dim=20, hidden=64, n_classes=3):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, n_classes),
        )

    def forward(self, x):
        return self.net(x)


def make_loaders(n=600, in_dim=20, n_classes=3):
    centers = 2.0 * torch.randn(n_classes, in_dim)
    y = torch.randint(n_classes, (n,))
    x = centers[y] + torch.randn(n, in_dim)
    train = TensorDataset(x[:480], y[:480])
    test = TensorDataset(x[480:], y[480:])
    return DataLoader(train, batch_size=32, shuffle=True), DataLoader(test, batch_size=40)


def pgd_attack(model, x, y, eps=EPS, alpha=ALPHA, steps=PGD_STEPS):
    x_adv = x.clone().detach() + torch.empty_like(x).uniform_(-eps, eps)
    for _ in range(steps):
        x_adv.requires_grad_(True)
        loss = F.cross_entropy(model(x_adv), y)
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            x_adv = x_adv + alpha * x_adv.grad.sign()
            x_adv = torch.min(torch.max(x_adv, x - eps), x + eps)
    return x_adv.detach()


def train(model, loader, optimizer, epochs=3):
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(x)
        print(f"epoch {epoch}: train loss {total / len(loader.dataset):.4f}")


def evaluate(model, loader):
    model.eval()
    correct = correct_adv = total = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            x_adv = pgd_attack(model, x, y)
            correct_adv += (model(x_adv).argmax(1) == y).sum().item()
            total += len(y)
    return correct / total, correct_adv / total


def main():
    train_loader, test_loader = make_loaders()
    model = MLP()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    train(model, train_loader, optimizer)
    clean_acc, robust_acc = evaluate(model, test_loader)
    print(f"clean acc {clean_acc:.3f}  PGD acc {robust_acc:.3f}")


if __name__ == "__main__":
    main()
