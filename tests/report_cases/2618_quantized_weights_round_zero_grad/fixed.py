import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

QCFG = {"bits": 4, "lr": 1e-2, "steps": 8}


class RoundSTE(torch.autograd.Function):
    """round() in the forward pass, identity gradient in the backward pass."""

    @staticmethod
    def forward(ctx, x):
        return torch.round(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


def quantize(w, bits):
    scale = w.detach().abs().max() / (2 ** (bits - 1) - 1)
    return RoundSTE.apply(w / scale) * scale


class QuantLinear(nn.Linear):
    """Weights and bias are quantized before every forward pass."""

    def __init__(self, *args, bits=4, **kwargs):
        super().__init__(*args, **kwargs)
        self.bits = bits

    def forward(self, x):
        w_q = quantize(self.weight, self.bits)
        b_q = quantize(self.bias, self.bits)
        return F.linear(x, w_q, b_q)


class QuantMLP(nn.Module):
    def __init__(self, bits):
        super().__init__()
        self.fc1 = QuantLinear(10, 32, bits=bits)
        self.fc2 = QuantLinear(32, 4, bits=bits)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


model = QuantMLP(QCFG["bits"])
optimizer = torch.optim.SGD(model.parameters(), lr=QCFG["lr"], momentum=0.9)
x, y = torch.randn(64, 10), torch.randint(0, 4, (64,))
for step in range(QCFG["steps"]):
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 4))
