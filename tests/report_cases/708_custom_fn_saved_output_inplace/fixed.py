"""Count regression with a hand-written exp activation (custom autograd.Function)."""
import torch
import torch.nn as nn


class SafeExp(torch.autograd.Function):
    """exp(x) with clamped input; backward reuses the saved output."""

    @staticmethod
    def forward(ctx, x):
        out = torch.exp(x.clamp(max=10.0))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        (out,) = ctx.saved_tensors
        return grad_out * out


class PoissonHead(nn.Module):
    def __init__(self, in_dim=5, hidden=16):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, 1)
        self.register_buffer("rate_floor", torch.tensor(1e-3))

    def forward(self, x):
        rate = SafeExp.apply(self.fc2(torch.relu(self.fc1(x))))
        rate = rate + self.rate_floor    # keep the Poisson rate strictly positive
        return rate.squeeze(-1)


def batches(n_batches=4, batch=16, in_dim=5):
    g = torch.Generator().manual_seed(0)
    w = torch.randn(in_dim, generator=g) * 0.3
    for _ in range(n_batches):
        x = torch.randn(batch, in_dim, generator=g)
        yield x, torch.poisson((x @ w).exp())


def main():
    torch.manual_seed(0)
    model = PoissonHead()
    opt = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    nll = nn.PoissonNLLLoss(log_input=False)
    for epoch in range(2):
        for x, y in batches():
            rate = model(x)
            loss = nll(rate, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print("epoch", epoch, round(loss.item(), 4))


if __name__ == "__main__":
    main()
