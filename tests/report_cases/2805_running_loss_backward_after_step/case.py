import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 16, 1)

    def forward(self, x):
        h = torch.relu(self.conv(x))
        return self.fc(h.flatten(1))


def make_batches(n_batches=5, bs=8):
    # data built from numpy arrays, as in the report
    batches = []
    for _ in range(n_batches):
        x = torch.stack([torch.from_numpy(np.random.randn(1, 16).astype(np.float32)) for _ in range(bs)])
        y = x.mean(dim=(1, 2)).unsqueeze(1)
        batches.append((x, y))
    return batches


net = Net()
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.05)
batches = make_batches()

for epoch in range(3):
    running_loss = 0
    for x, y in batches:
        optimizer.zero_grad()
        loss = criterion(net(x), y)
        loss.backward()
        optimizer.step()
        running_loss += loss
    # second pass over the whole epoch objective
    optimizer.zero_grad()
    running_loss.backward()
    optimizer.step()
    print(epoch, float(running_loss))
