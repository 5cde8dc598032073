"""Truncated BPTT over a long multivariate stream with a stateful two-stage recurrent model."""
import torch
import torch.nn.functional as F

from model import StatefulForecaster
from utils import chunks, detach_states

torch.manual_seed(0)

model = StatefulForecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
t = torch.arange(80).float().unsqueeze(1).unsqueeze(2) * 0.2
stream = torch.sin(t + torch.arange(4).float()).expand(80, 3, 4) + 0.05 * torch.randn(80, 3, 4)

epoch_losses = []
for epoch in range(2):
    states = model.init_states(batch=3)
    total, n = 0.0, 0
    for inputs, targets in chunks(stream, 10):
        states = detach_states(states)
        preds, states = model(inputs, states)
        loss = F.mse_loss(preds, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        n += 1
    epoch_losses.append(total / n)
print(epoch_losses, states["t"])
