# fixed twin: only the forward that feeds the loss runs with grad enabled.
import torch
import torch.nn as nn

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(policy.parameters(), lr=3e-4)


def update(states, targets):
    values = policy(states)
    loss = (values - targets).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()


for _ in range(2):
    update(torch.randn(16, 4), torch.randn(16, 2))
