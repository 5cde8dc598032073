# Training, then an evaluation pass under no_grad that computes the same loss.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()


def run_epoch(train):
    total = 0.0
    for _ in range(3):
        x, y = torch.randn(10, 6), torch.randn(10, 1)
        if train:
            model.train()
            loss = loss_fn(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        else:
            model.eval()
            with torch.no_grad():
                loss = loss_fn(model(x), y)
        total += loss.item()
    return total / 3


for epoch in range(2):
    run_epoch(True)
    run_epoch(False)
