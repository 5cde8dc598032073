"""Quantization-aware training in the style of quantized.pytorch
(models/modules/quantize.py): UniformQuantize is a custom autograd.Function
with a straight-through backward, UniformQuantizeGrad quantizes only the
gradient, QuantMeasure tracks running ranges in buffers with in-place ops, and
QConv2d/QLinear quantize inputs and weights in forward."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd.function import Function


class UniformQuantize(Function):
    @staticmethod
    def forward(ctx, input, num_bits=8, min_value=None, max_value=None, stochastic=False):
        output = input.clone()
        qmin, qmax = 0.0, 2.0 ** num_bits - 1.0
        min_value = float(input.min()) if min_value is None else min_value
        max_value = float(input.max()) if max_value is None else max_value
        scale = max((max_value - min_value) / (qmax - qmin), 1e-8)
        output.add_(-min_value).div_(scale).add_(qmin)
        if stochastic:
            output.add_(torch.empty_like(output).uniform_(-0.5, 0.5))
        output.clamp_(qmin, qmax).round_()
        output.add_(-qmin).mul_(scale).add_(min_value)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        # straight-through estimator
        return grad_output, None, None, None, None


class UniformQuantizeGrad(Function):
    @staticmethod
    def forward(ctx, input, num_bits=8):
        ctx.num_bits = num_bits
        return input.view_as(input)

    @staticmethod
    def backward(ctx, grad_output):
        with torch.no_grad():
            grad_input = UniformQuantize.apply(grad_output, ctx.num_bits, None, None, True)
        return grad_input, None


def quantize(x, num_bits=8, min_value=None, max_value=None, stochastic=False):
    return UniformQuantize.apply(x, num_bits, min_value, max_value, stochastic)


class QuantMeasure(nn.Module):
    def __init__(self, num_bits=8, momentum=0.1):
        super().__init__()
        self.register_buffer("running_min", torch.zeros(1))
        self.register_buffer("running_max", torch.zeros(1))
        self.momentum, self.num_bits = momentum, num_bits

    def forward(self, input):
        if self.training:
            with torch.no_grad():
                self.running_min.mul_(1 - self.momentum).add_(self.momentum * input.min())
                self.running_max.mul_(1 - self.momentum).add_(self.momentum * input.max())
        return quantize(input, self.num_bits, float(self.running_min), float(self.running_max))


class QConv2d(nn.Conv2d):
    def __init__(self, *args, num_bits=8, num_bits_grad=8, **kwargs):
        super().__init__(*args, **kwargs)
        self.quantize_input = QuantMeasure(num_bits)
        self.num_bits, self.num_bits_grad = num_bits, num_bits_grad

    def forward(self, input):
        qinput = self.quantize_input(input)
        qweight = quantize(self.weight, self.num_bits)
        output = F.conv2d(qinput, qweight, self.bias, self.stride, self.padding)
        return UniformQuantizeGrad.apply(output, self.num_bits_grad)


class QLinear(nn.Linear):
    def __init__(self, *args, num_bits=8, **kwargs):
        super().__init__(*args, **kwargs)
        self.quantize_input = QuantMeasure(num_bits)
        self.num_bits = num_bits

    def forward(self, input):
        return F.linear(self.quantize_input(input), quantize(self.weight, self.num_bits), self.bias)


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(QConv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True),
                                      nn.MaxPool2d(2), QConv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16),
                                      nn.ReLU(inplace=True), nn.AdaptiveAvgPool2d(1))
        self.fc = QLinear(16, 4)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = QNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for it in range(5):
        x, y = torch.randn(8, 1, 12, 12), torch.randint(0, 4, (8,))
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it}: loss {loss.item():.4f}")
