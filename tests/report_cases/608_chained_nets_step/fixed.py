# Two small networks trained in sequence: n_2 refines the prediction of n_1.
import torch
from torch import nn as nn
from torch import optim
from torch.nn import functional as F


class Net1(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear_1 = nn.Linear(1, 10)
        self.linear_2 = nn.Linear(10, 1)

    def forward(self, x):
        x = F.relu(self.linear_1(x))
        return self.linear_2(x)


class Net2(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear_1 = nn.Linear(1, 10)
        self.linear_2 = nn.Linear(10, 1)

    def forward(self, x):
        x = F.relu(self.linear_1(x))
        return self.linear_2(x)


n_1 = Net1()
n_2 = Net2()
optimizer_n1 = optim.Adam(n_1.parameters(), lr=0.001)
optimizer_n2 = optim.Adam(n_2.parameters(), lr=0.001)
criterion = nn.MSELoss()

torch.manual_seed(0)
for i in range(5):
    x = torch.randn(10, 1)
    y = 2 * x

    pred_n1 = n_1(x)
    optimizer_n1.zero_grad()
    loss_n1 = criterion(pred_n1, y)
    loss_n1.backward()
    optimizer_n1.step()

    # n_2 only refines n_1's output; n_1 is trained by loss_n1 alone
    pred_n2 = n_2(pred_n1.detach())
    optimizer_n2.zero_grad()
    loss_n2 = criterion(pred_n2, y)
    loss_n2.backward()
    optimizer_n2.step()
    print(i, loss_n1.item(), loss_n2.item())
