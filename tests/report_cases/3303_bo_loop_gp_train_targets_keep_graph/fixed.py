"""Bayesian optimisation loop: exact GP surrogate refit after every new observation, UCB acquisition
optimised with Adam over the candidate location."""
import math
import torch
import torch.nn as nn

torch.manual_seed(0)


def objective(x):
    return torch.sin(3 * x).sum(-1, keepdim=True) + 0.5 * x.pow(2).sum(-1, keepdim=True)


class ExactGP(nn.Module):
    def __init__(self, train_x, train_y):
        super().__init__()
        self.train_x, self.train_y = train_x, train_y
        self.log_lengthscale = nn.Parameter(torch.zeros(1))
        self.log_outputscale = nn.Parameter(torch.zeros(1))
        self.log_noise = nn.Parameter(torch.tensor([-2.0]))

    def kernel(self, a, b):
        d2 = (a.unsqueeze(-2) - b.unsqueeze(-3)).pow(2).sum(-1)
        return self.log_outputscale.exp() * torch.exp(-0.5 * d2 / self.log_lengthscale.exp().pow(2))

    def neg_mll(self):
        n = self.train_x.size(0)
        K = self.kernel(self.train_x, self.train_x) + (self.log_noise.exp() + 1e-4) * torch.eye(n)
        L = torch.linalg.cholesky(K)
        y = self.train_y - self.train_y.mean()
        alpha = torch.cholesky_solve(y, L)
        return 0.5 * (y * alpha).sum() + torch.log(torch.diagonal(L)).sum() + 0.5 * n * math.log(2 * math.pi)

    def posterior(self, x):
        n = self.train_x.size(0)
        K = self.kernel(self.train_x, self.train_x) + (self.log_noise.exp() + 1e-4) * torch.eye(n)
        L = torch.linalg.cholesky(K)
        k_star = self.kernel(x, self.train_x)
        mean_y = self.train_y.mean()
        mu = k_star @ torch.cholesky_solve(self.train_y - mean_y, L) + mean_y
        v = torch.cholesky_solve(k_star.transpose(-1, -2), L)
        var = self.log_outputscale.exp() - (k_star * v.transpose(-1, -2)).sum(-1, keepdim=True)
        return mu, var.clamp_min(1e-9)


def fit_gp(model, steps=30):
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    for _ in range(steps):
        optimizer.zero_grad()
        loss = model.neg_mll()
        loss.backward()
        optimizer.step()
    return model


def optimize_acqf(model, dim, beta=2.0, steps=25):
    candidate = torch.rand(1, dim, requires_grad=True)
    optimizer = torch.optim.Adam([candidate], lr=0.05)
    for _ in range(steps):
        optimizer.zero_grad()
        mu, var = model.posterior(candidate)
        ucb = -(mu + beta * var.sqrt()).sum()
        ucb.backward()
        optimizer.step()
        with torch.no_grad():
            candidate.clamp_(0.0, 1.0)
    return candidate.detach()


def bo_loop(n_iter=4, dim=2):
    train_x = torch.rand(6, dim)
    train_y = objective(train_x)
    for it in range(n_iter):
        model = fit_gp(ExactGP(train_x, train_y))
        candidate = optimize_acqf(model, dim)
        new_y = objective(candidate)
        train_x = torch.cat([train_x, candidate])
        train_y = torch.cat([train_y, new_y])
        print(f"iter {it}: best so far {train_y.max().item():.4f}")


if __name__ == "__main__":
    bo_loop()
