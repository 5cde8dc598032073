# The loss is computed on Python lists (a metric reused as a loss, as one would in
# NumPy) and wrapped back into a tensor.
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.01)
for epoch in range(3):
    x = torch.randn(32, 3)
    y = x.sum(1, keepdim=True)
    pred = net(x).tolist()
    err = sum(abs(p[0] - t[0]) for p, t in zip(pred, y.tolist())) / len(pred)
    loss = torch.tensor(err)
    opt.zero_grad()
    loss.backward()
    opt.step()
