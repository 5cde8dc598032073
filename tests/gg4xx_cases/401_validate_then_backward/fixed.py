# fixed twin: the forward runs with grad enabled.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 2))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train_epoch(steps=3):
    model.train()
    for _ in range(steps):
        data, target = torch.randn(8, 10), torch.randint(0, 2, (8,))
        optimizer.zero_grad()
        output = model(data)
        loss = criterion(output, target)
        loss.backward()
        optimizer.step()


def validate():
    model.eval()
    with torch.no_grad():
        output = model(torch.randn(8, 10))
        return criterion(output, torch.randint(0, 2, (8,))).item()


if __name__ == "__main__":
    train_epoch()
    validate()
