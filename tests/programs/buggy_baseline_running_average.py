import torch
import torch.nn as nn

critic = nn.Linear(3, 1)
opt = torch.optim.Adam(critic.parameters(), lr=1e-2)
baseline = torch.zeros(1)
for step in range(3):
    value = critic(torch.randn(5, 3)).mean()
    baseline = 0.9 * baseline + 0.1 * value
    loss = (value - baseline).pow(2)
    opt.zero_grad()
    loss.backward()
    opt.step()
