# Exact GP regression with an RBF kernel; hyperparameters fitted by maximising the
# marginal likelihood with Adam.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
JITTER = 1e-5


class ExactGP(nn.Module):
    def __init__(self, train_x, train_y, lengthscale=1.0, signal_var=1.0, noise_var=0.1):
        super().__init__()
        self.train_x = train_x
        self.train_y = train_y
        # hyperparameters are optimised in log space so they stay positive
        self.lengthscale = nn.Parameter(torch.tensor(math.log(lengthscale))).exp()
        self.signal_var = nn.Parameter(torch.tensor(math.log(signal_var))).exp()
        self.log_noise_var = nn.Parameter(torch.tensor(math.log(noise_var)))

    def kernel(self, a, b):
        sq_dist = torch.cdist(a / self.lengthscale, b / self.lengthscale).pow(2)
        return self.signal_var * torch.exp(-0.5 * sq_dist)

    def negative_log_marginal_likelihood(self):
        n = self.train_x.shape[0]
        K = self.kernel(self.train_x, self.train_x)
        K = K + (self.log_noise_var.exp() + JITTER) * torch.eye(n)
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve(self.train_y.unsqueeze(-1), L)
        nll = 0.5 * (self.train_y.unsqueeze(-1) * alpha).sum()
        nll = nll + torch.log(torch.diagonal(L)).sum() + 0.5 * n * math.log(2 * math.pi)
        return nll / n

    @torch.no_grad()
    def predict(self, test_x):
        n = self.train_x.shape[0]
        K = self.kernel(self.train_x, self.train_x) + (self.log_noise_var.exp() + JITTER) * torch.eye(n)
        L = torch.linalg.cholesky(K)
        k_star = self.kernel(test_x, self.train_x)
        mean = k_star @ torch.cholesky_solve(self.train_y.unsqueeze(-1), L)
        v = torch.cholesky_solve(k_star.t(), L)
        var = self.signal_var - (k_star * v.t()).sum(-1)
        return mean.squeeze(-1), var


def train(model, n_iter=30, lr=0.05):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for i in range(n_iter):
        optimizer.zero_grad()
        loss = model.negative_log_marginal_likelihood()
        loss.backward()
        optimizer.step()
        if i % 10 == 0:
            print(f"iter {i}: nll {loss.item():.4f}")


train_x = torch.linspace(0, 6, 40).unsqueeze(-1)
train_y = torch.sin(2 * train_x).squeeze(-1) + 0.1 * torch.randn(40)
gp = ExactGP(train_x, train_y, lengthscale=0.5)
train(gp)
mean, var = gp.predict(torch.linspace(0, 6, 7).unsqueeze(-1))
print("posterior mean:", mean)
