# fixed twin: each micro-batch loss is backpropagated; .item() only for the log.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(6, 2)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    optimizer.zero_grad()
    total = 0.0
    for micro in range(4):
        x, y = torch.randn(4, 6), torch.randn(4, 2)
        loss = criterion(model(x), y) / 4
        loss.backward()
        total += loss.item()
    optimizer.step()
    print(step, total)
