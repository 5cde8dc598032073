"""Learned down/up-scaling with a quantized bottleneck (straight-through rounding)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Quant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        ctx.save_for_backward(inp)
        out = torch.clamp(inp, 0, 1)
        return (out * 255.0).round() / 255.0

    @staticmethod
    def backward(ctx, grad_output):
        (inp,) = ctx.saved_tensors
        inside = ((inp >= 0) & (inp <= 1)).to(grad_output.dtype)
        return grad_output * inside


class Quantization(nn.Module):
    def forward(self, x):
        return Quant.apply(x)


class Rescaler(nn.Module):
    def __init__(self, hi=16, lo=4):
        super().__init__()
        self.down = nn.Sequential(nn.Linear(hi, 32), nn.ReLU(), nn.Linear(32, lo), nn.Sigmoid())
        self.quant = Quantization()
        self.up = nn.Sequential(nn.Linear(lo, 32), nn.ReLU(), nn.Linear(32, hi))

    def forward(self, x):
        code = self.quant(self.down(x))
        code.sub_(0.5).mul_(2.0)
        return code, self.up(code)


def main():
    torch.manual_seed(0)
    model = Rescaler()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for it in range(5):
        hr = torch.rand(8, 16)
        code, rec = model(hr)
        guide = F.avg_pool1d(hr.unsqueeze(1), 4).squeeze(1)
        loss = F.mse_loss(rec, hr) + 0.5 * F.mse_loss(code * 0.5 + 0.5, guide)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(it, round(loss.item(), 5))


if __name__ == "__main__":
    main()
