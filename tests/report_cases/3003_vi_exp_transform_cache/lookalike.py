"""Variational inference for a positive rate: the guide is a LogNormal built as a
TransformedDistribution with a cached ExpTransform, so log_prob of a fresh sample reuses
the cached inverse instead of recomputing log(y)."""
import torch
import torch.nn as nn
from torch.distributions import Normal, Poisson, TransformedDistribution
from torch.distributions import transforms as T

torch.manual_seed(0)


class LogNormalGuide(nn.Module):
    def __init__(self):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1))
        self.log_scale = nn.Parameter(torch.full((1,), -1.0))

    def forward(self):
        base = Normal(self.loc, self.log_scale.exp())
        return TransformedDistribution(base, [T.ExpTransform(cache_size=1)])


def elbo(guide, counts, num_samples=8):
    q = guide()
    rate = q.rsample((num_samples,))
    log_lik = Poisson(rate).log_prob(counts).sum(-1).mean()
    log_prior = Normal(0.0, 2.0).log_prob(rate.log()).sum(-1).mean() - rate.log().sum(-1).mean()
    entropy_term = -q.log_prob(rate).sum(-1).mean()
    return log_lik + log_prior + entropy_term


def fit(steps=20):
    counts = torch.poisson(torch.full((32,), 3.0))
    guide = LogNormalGuide()
    optimizer = torch.optim.Adam(guide.parameters(), lr=0.05)
    for step in range(steps):
        loss = -elbo(guide, counts)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 5 == 0:
            print(f"step {step}: -ELBO {loss.item():.3f} loc {guide.loc.item():.3f}")
    return guide


if __name__ == "__main__":
    fit()
