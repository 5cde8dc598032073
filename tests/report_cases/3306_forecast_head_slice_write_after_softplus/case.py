"""Probabilistic demand forecaster (DeepAR-style): GRU encoder + Gaussian head whose scale grows
with the predicted level."""
import torch
import torch.nn as nn

torch.manual_seed(0)

HPARAMS = {"context": 24, "hidden": 32, "batch": 16, "steps": 15, "lr": 1e-2}


class GaussianHead(nn.Module):
    """Maps hidden states to (loc, scale); scale = softplus(loc) * sigmoid(raw_scale) + eps."""

    def __init__(self, hidden):
        super().__init__()
        self.proj = nn.Linear(hidden, 2)

    def forward(self, h):
        raw = self.proj(h)
        params = torch.zeros_like(raw)
        params[..., 0] = raw[..., 0]
        level = nn.functional.softplus(params[..., 0])
        params[..., 1] = level * torch.sigmoid(raw[..., 1]) + 1e-3
        return params


class Forecaster(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.rnn = nn.GRU(1, hidden, batch_first=True)
        self.head = GaussianHead(hidden)

    def forward(self, past):
        out, _ = self.rnn(past.unsqueeze(-1))
        return self.head(out)


def nll(params, target):
    dist = torch.distributions.Normal(params[..., 0], params[..., 1])
    return -dist.log_prob(target).mean()


def make_series(batch, length):
    t = torch.arange(length + 1).float()
    base = 5 + 2 * torch.sin(t / 4 + torch.rand(batch, 1) * 6)
    return (base + 0.3 * torch.randn(batch, length + 1)).clamp_min(0)


def train(hp):
    model = Forecaster(hp["hidden"])
    optimizer = torch.optim.Adam(model.parameters(), lr=hp["lr"])
    for step in range(hp["steps"]):
        series = make_series(hp["batch"], hp["context"])
        params = model(series[:, :-1])
        loss = nll(params, series[:, 1:])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("final nll", loss.item())


if __name__ == "__main__":
    train(HPARAMS)
