import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self, n_in=6, n_act=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU())
        self.head = nn.Linear(32, n_act)

    def forward(self, x):
        return self.head(self.body(x))


class Net2(Net):
    """Same interface, deeper body (structure changed during the project)."""
    def __init__(self, n_in=6, n_act=3):
        super().__init__(n_in, n_act)
        self.body = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())


net1 = Net()  # 1st network
optimizer = optim.Adam(net1.parameters(), lr=3e-2)

print("================================================")
# some other code......
config = {"arch": "deep"}
if config["arch"] == "deep":
    net1 = Net2()  # another network
    optimizer = optim.Adam(net1.parameters(), lr=3e-2)  # optimizer must see the new parameters

states = torch.randn(64, 6)
target_q = states[:, :3] * 2.0
for epoch in range(20):
    q = net1(states)
    loss = ((q - target_q) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 5 == 0:
        print(epoch, round(loss.item(), 4))
