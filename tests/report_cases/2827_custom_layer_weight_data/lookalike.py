import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_units, units) * 0.1)
        self.bias = nn.Parameter(torch.randn(units) * 0.1)

    def forward(self, X):
        linear = torch.matmul(X, self.weight) + self.bias
        return F.relu(linear)

    @torch.no_grad()
    def max_norm_(self, max_val=3.0):
        # .data-style constraint applied between steps, outside the graph
        norms = self.weight.data.norm(dim=0, keepdim=True).clamp(min=max_val)
        self.weight.data.mul_(max_val / norms)


def make_data(n=256):
    X = torch.randn(n, 64)
    w = torch.randn(64, 1)
    return X, X @ w * 0.1 + 0.05 * torch.randn(n, 1)


net = nn.Sequential(MyLinear(64, 16), MyLinear(16, 8), nn.Linear(8, 1))
trainer = torch.optim.SGD(net.parameters(), lr=0.05)
loss = nn.MSELoss()
X, y = make_data()
w0 = net[0].weight.detach().clone()
for epoch in range(5):
    for i in range(0, 256, 32):
        l = loss(net(X[i:i + 32]), y[i:i + 32])
        trainer.zero_grad()
        l.backward()
        trainer.step()
        net[0].max_norm_()
        net[1].max_norm_()
    print(f"epoch {epoch + 1}, loss {loss(net(X), y).item():f}")
print("first MyLinear weight change:", (net[0].weight - w0).abs().sum().item())
