# fixed twin: each fold gets an optimizer of its own model.
import torch
import torch.nn as nn


def make_model():
    return nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 1))


torch.manual_seed(0)
loss_fn = nn.MSELoss()
for fold in range(2):
    model = make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(3):
        x, y = torch.randn(16, 5), torch.randn(16, 1)
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
