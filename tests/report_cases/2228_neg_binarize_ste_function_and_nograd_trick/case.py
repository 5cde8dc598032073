import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class BinarizeFn(torch.autograd.Function):
    """sign() in the forward; clipped straight-through estimator in the backward."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.where(x > 0, torch.ones_like(x), -torch.ones_like(x))

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x.abs() <= 1).to(grad_output.dtype)


class Binarize(torch.nn.Module):
    """Straight-through binarization without a custom autograd function: the correction term is
    computed without gradient tracking, so the forward value is sign(x) and d(out)/dx = 1."""

    def forward(self, x):
        with torch.no_grad():
            bx = torch.where(torch.gt(x, 0), 1.0, -1.0)
            dy = bx - x
        return x + dy


class BinaryLinear(nn.Linear):
    def forward(self, x):
        w_b = BinarizeFn.apply(self.weight)
        return F.linear(x, w_b, self.bias)


class BinaryMLP(nn.Module):
    def __init__(self, in_dim=64, hidden=128, n_classes=10):
        super().__init__()
        self.fc1 = BinaryLinear(in_dim, hidden)
        self.bn1 = nn.BatchNorm1d(hidden)
        self.act1 = Binarize()
        self.fc2 = BinaryLinear(hidden, hidden)
        self.bn2 = nn.BatchNorm1d(hidden)
        self.act2 = Binarize()
        self.fc3 = nn.Linear(hidden, n_classes)

    def forward(self, x):
        x = self.act1(self.bn1(self.fc1(x)))
        x = self.act2(self.bn2(self.fc2(x)))
        return self.fc3(x)


def batches(n, batch_size=64, templates=torch.randn(10, 64)):
    for _ in range(n):
        y = torch.randint(0, 10, (batch_size,))
        yield templates[y] + 0.7 * torch.randn(batch_size, 64), y


def main():
    model = BinaryMLP()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(4):
        model.train()
        for x, y in batches(10):
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            with torch.no_grad():  # keep the latent real-valued weights in the STE's active range
                for m in model.modules():
                    if isinstance(m, BinaryLinear):
                        m.weight.clamp_(-1, 1)
        model.eval()
        with torch.no_grad():
            acc = sum((model(x).argmax(1) == y).float().mean().item() for x, y in batches(3)) / 3
        print(f"epoch {epoch} loss {loss.item():.4f} acc {acc:.3f}")


if __name__ == '__main__':
    main()
