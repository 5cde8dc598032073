# "Loss does not decrease": the optimizer was built, then the model was re-created
# (to reset it between folds), so the optimizer still holds the old model's parameters.
import torch
import torch.nn as nn


def make_model():
    return nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 1))


torch.manual_seed(0)
model = make_model()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = nn.MSELoss()
for fold in range(2):
    model = make_model()
    for step in range(3):
        x, y = torch.randn(16, 5), torch.randn(16, 1)
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
