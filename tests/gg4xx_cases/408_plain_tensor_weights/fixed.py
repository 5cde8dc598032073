# fixed twin: the weights are leaves that require grad.
import torch

torch.manual_seed(0)
x = torch.randn(50, 2)
y = x @ torch.tensor([[2.0], [-1.0]]) + 0.5
w = torch.randn(2, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.1
for epoch in range(3):
    pred = x @ w + b
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
