# Gradient accumulation over micro-batches: the running loss was accumulated with
# .item() (to save memory) and then backwarded.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(6, 2)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    total = torch.tensor(0.0)
    for micro in range(4):
        x, y = torch.randn(4, 6), torch.randn(4, 2)
        total += criterion(model(x), y).item()
    optimizer.zero_grad()
    (total / 4).backward()
    optimizer.step()
