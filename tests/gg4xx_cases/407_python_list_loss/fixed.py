# fixed twin: the same loss in torch; the Python metric is only logged.
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.01)
for epoch in range(3):
    x = torch.randn(32, 3)
    y = x.sum(1, keepdim=True)
    out = net(x)
    pred = out.tolist()
    err = sum(abs(p[0] - t[0]) for p, t in zip(pred, y.tolist())) / len(pred)
    loss = (out - y).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, err)
