import torch
import torch.nn as nn


class Accelerator:
    def backward(self, loss, **kwargs):
        loss.backward(**kwargs)


accelerator = Accelerator()
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(8, 4)
pred = model(x)
mse = (pred - 1).pow(2).mean()
l1 = (pred - 1).abs().mean()
accelerator.backward(mse)
accelerator.backward(mse + l1)
opt.step()
