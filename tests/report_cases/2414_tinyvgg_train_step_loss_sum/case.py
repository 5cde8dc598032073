"""TinyVGG on FashionMNIST-shaped data with reusable train_step / test_step
functions (course notebook style); synthetic images stand in for the dataset."""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class FashionMNISTModelV2(nn.Module):
    def __init__(self, input_shape, hidden_units, output_shape):
        super().__init__()
        self.block_1 = nn.Sequential(
            nn.Conv2d(input_shape, hidden_units, 3, 1, 1), nn.ReLU(),
            nn.Conv2d(hidden_units, hidden_units, 3, 1, 1), nn.ReLU(), nn.MaxPool2d(2))
        self.block_2 = nn.Sequential(
            nn.Conv2d(hidden_units, hidden_units, 3, padding=1), nn.ReLU(),
            nn.Conv2d(hidden_units, hidden_units, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(hidden_units * 7 * 7, output_shape))

    def forward(self, x):
        return self.classifier(self.block_2(self.block_1(x)))


def accuracy_fn(y_true, y_pred):
    return (y_true == y_pred).sum().item() / len(y_pred) * 100


def train_step(model, data_loader, loss_fn, optimizer, accuracy_fn, device):
    train_loss, train_acc = 0, 0
    model.to(device)
    model.train()
    for batch, (X, y) in enumerate(data_loader):
        X, y = X.to(device), y.to(device)
        # 1. Forward pass
        y_pred = model(X)
        # 2. Calculate loss (per batch)
        loss = loss_fn(y_pred, y)
        train_loss += loss  # accumulatively add up the loss per epoch
        train_acc += accuracy_fn(y_true=y, y_pred=y_pred.argmax(dim=1))
        # 3-5. zero grad, backward, step
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    train_loss /= len(data_loader)
    train_acc /= len(data_loader)
    print(f"Train loss: {train_loss:.5f} | Train accuracy: {train_acc:.2f}%")


def test_step(data_loader, model, loss_fn, accuracy_fn, device):
    test_loss, test_acc = 0, 0
    model.to(device)
    model.eval()
    with torch.inference_mode():
        for X, y in data_loader:
            X, y = X.to(device), y.to(device)
            test_pred = model(X)
            test_loss += loss_fn(test_pred, y)
            test_acc += accuracy_fn(y_true=y, y_pred=test_pred.argmax(dim=1))
        test_loss /= len(data_loader)
        test_acc /= len(data_loader)
        print(f"Test loss: {test_loss:.5f} | Test accuracy: {test_acc:.2f}%\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch_size", type=int, default=32)
    parser.add_argument("--hidden_units", type=int, default=8)
    args = parser.parse_args()
    torch.manual_seed(42)
    device = "cpu"
    X_train, y_train = torch.rand(256, 1, 28, 28), torch.randint(0, 10, (256,))
    X_test, y_test = torch.rand(64, 1, 28, 28), torch.randint(0, 10, (64,))
    train_dataloader = DataLoader(TensorDataset(X_train, y_train), batch_size=args.batch_size, shuffle=True)
    test_dataloader = DataLoader(TensorDataset(X_test, y_test), batch_size=args.batch_size)

    model_2 = FashionMNISTModelV2(input_shape=1, hidden_units=args.hidden_units, output_shape=10)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(params=model_2.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        print(f"Epoch: {epoch}\n---------")
        train_step(model_2, train_dataloader, loss_fn, optimizer, accuracy_fn, device)
        test_step(test_dataloader, model_2, loss_fn, accuracy_fn, device)


if __name__ == "__main__":
    main()
