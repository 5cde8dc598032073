"""Curve fitting with L-BFGS (closure API), then a short Adam fine-tune."""
import torch
import torch.nn as nn

torch.manual_seed(0)

x = torch.linspace(-2, 2, 64).unsqueeze(1)
y = torch.sin(2 * x) + 0.05 * torch.randn_like(x)

model = nn.Sequential(nn.Linear(1, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 1))
criterion = nn.MSELoss()
optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10, history_size=10,
                              line_search_fn="strong_wolfe")
history = []


def closure():
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    history.append(loss.item())
    return loss


for i in range(4):
    loss = optimizer.step(closure)
    print("lbfgs step", i, float(loss))

finetune = torch.optim.Adam(model.parameters(), lr=1e-3)
for i in range(5):
    finetune.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    finetune.step()

model.eval()
with torch.no_grad():
    final = criterion(model(x), y).item()
print(len(history), final)
