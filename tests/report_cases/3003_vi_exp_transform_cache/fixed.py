"""Mean-field variational inference for Bayesian linear regression: the guide keeps an
unconstrained log-scale and maps it through an ExpTransform (with a one-element cache)."""
import torch
import torch.nn as nn
from torch.distributions import Normal, kl_divergence
from torch.distributions import transforms as T

torch.manual_seed(0)


class MeanFieldGuide(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(dim))
        self.log_scale = nn.Parameter(torch.full((dim,), -1.0))
        self.to_positive = T.ExpTransform()

    def forward(self):
        scale = self.to_positive(self.log_scale)
        return Normal(self.loc, scale)


def elbo(guide, prior, X, y, noise_scale=0.3, num_samples=8):
    q = guide()
    w = q.rsample((num_samples,))
    mean = X @ w.T
    log_lik = Normal(mean, noise_scale).log_prob(y.unsqueeze(1)).sum(0).mean()
    kl = kl_divergence(q, prior).sum()
    return log_lik - kl


def fit(steps=20):
    X = torch.randn(64, 3)
    true_w = torch.tensor([1.5, -2.0, 0.5])
    y = X @ true_w + 0.3 * torch.randn(64)
    prior = Normal(torch.zeros(3), torch.ones(3))
    guide = MeanFieldGuide(3)
    optimizer = torch.optim.Adam(guide.parameters(), lr=0.05)
    for step in range(steps):
        loss = -elbo(guide, prior, X, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 5 == 0:
            print(f"step {step}: -ELBO {loss.item():.3f} loc {guide.loc.detach().numpy().round(2)}")
    return guide


if __name__ == "__main__":
    fit()
