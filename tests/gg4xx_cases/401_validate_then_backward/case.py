# "element 0 of tensors does not require grad": the training step was copied from the
# validation loop and kept its torch.no_grad() block.
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
        with torch.no_grad():
            output = model(data)
            loss = criterion(output, target)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train_epoch()
