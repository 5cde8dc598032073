"""Heteroscedastic regression with a custom softplus autograd.Function for the std head."""
import torch
import torch.nn as nn


class FastSoftplus(torch.autograd.Function):
    """softplus(x) = log(1 + exp(x)); backward needs sigmoid(x) = 1 - exp(-out)."""

    @staticmethod
    def forward(ctx, x):
        out = torch.nn.functional.softplus(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        (out,) = ctx.saved_tensors
        return grad_out * (1 - torch.exp(-out))


class GaussianHead(nn.Module):
    def __init__(self, in_dim=4, hidden=16, temperature=2.0):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, hidden), nn.SiLU())
        self.mu = nn.Linear(hidden, 1)
        self.raw_std = nn.Linear(hidden, 1)
        self.temperature = temperature
        self.register_buffer("min_std", torch.tensor(1e-3))

    def forward(self, x):
        h = self.body(x)
        raw = self.raw_std(h)
        raw.div_(self.temperature)               # in place on a Linear output nobody saved
        std = FastSoftplus.apply(raw)
        std = std + self.min_std                 # out of place: `std` is saved by FastSoftplus
        return self.mu(h).squeeze(-1), std.squeeze(-1)


def batches(n=4, batch=32):
    g = torch.Generator().manual_seed(0)
    for _ in range(n):
        x = torch.randn(batch, 4, generator=g)
        noise = torch.randn(batch, generator=g) * (0.1 + x[:, 1].abs())
        yield x, x[:, 0] * 1.5 + noise


def main():
    torch.manual_seed(0)
    model = GaussianHead()
    opt = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    nll = nn.GaussianNLLLoss()
    for epoch in range(2):
        for x, y in batches():
            mu, std = model(x)
            loss = nll(mu, y, std ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print("epoch", epoch, round(loss.item(), 4))


if __name__ == "__main__":
    main()
