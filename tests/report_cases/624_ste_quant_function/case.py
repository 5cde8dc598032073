# Quantisation-aware training with a custom straight-through estimator.
# The Function saves only its *input*; its output is then rescaled in place,
# which autograd allows because nothing saved that output.
import torch
import torch.nn as nn
import torch.nn.functional as F


class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bound):
        ctx.save_for_backward(x)
        ctx.bound = bound
        return torch.round(x.clamp(-bound, bound))

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        pass_through = (x.abs() <= ctx.bound).to(grad_out.dtype)
        return grad_out * pass_through, None


class QuantLinear(nn.Linear):
    def __init__(self, fin, fout, bits=4):
        super().__init__(fin, fout)
        self.levels = 2 ** (bits - 1) - 1

    def forward(self, x):
        scale = self.weight.detach().abs().max() / self.levels
        w_q = RoundSTE.apply(self.weight / scale, self.levels)
        w_q.mul_(scale)  # de-quantise in place
        return F.linear(x, w_q, self.bias)


torch.manual_seed(0)
model = nn.Sequential(QuantLinear(6, 16), nn.ReLU(), QuantLinear(16, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
x, y = torch.randn(20, 6), torch.randint(0, 2, (20,))
for epoch in range(4):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(epoch, loss.item())
