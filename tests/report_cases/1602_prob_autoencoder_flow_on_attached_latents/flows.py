"""Minimal RealNVP-style normalizing flow with a scikit-like fit() helper."""
import math

import torch
import torch.nn as nn


class AffineCoupling(nn.Module):
    def __init__(self, dim, hidden=32, flip=False):
        super().__init__()
        self.flip = flip
        self.half = dim // 2
        self.net = nn.Sequential(
            nn.Linear(self.half, hidden), nn.Tanh(),
            nn.Linear(hidden, 2 * (dim - self.half)),
        )

    def forward(self, x):
        a, b = x[:, :self.half], x[:, self.half:]
        if self.flip:
            a, b = b, a
        s, t = self.net(a).chunk(2, dim=1)
        s = torch.tanh(s)
        b = b * torch.exp(s) + t
        out = torch.cat([b, a], dim=1) if self.flip else torch.cat([a, b], dim=1)
        return out, s.sum(dim=1)


class Flow(nn.Module):
    def __init__(self, dim, n_layers=4, hidden=32):
        super().__init__()
        self.dim = dim
        self.layers = nn.ModuleList(
            AffineCoupling(dim, hidden, flip=(i % 2 == 1)) for i in range(n_layers)
        )

    def log_prob(self, x):
        z = x
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            z, ld = layer(z)
            log_det = log_det + ld
        base = -0.5 * (z ** 2).sum(dim=1) - 0.5 * self.dim * math.log(2 * math.pi)
        return base + log_det

    def fit(self, x_train, n_epochs=5, lr=1e-3, batch_size=64, verbose=True):
        """Maximum-likelihood fit on the rows of x_train."""
        optimizer = torch.optim.AdamW(self.parameters(), lr=lr)
        n = x_train.shape[0]
        for epoch in range(n_epochs):
            perm = torch.randperm(n)
            epoch_loss = 0.0
            for i in range(0, n, batch_size):
                batch = x_train[perm[i:i + batch_size]]
                optimizer.zero_grad()
                loss = -self.log_prob(batch).mean() / self.dim
                loss.backward()
                optimizer.step()
                epoch_loss += loss.item()
            if verbose:
                print(f"flow epoch {epoch}: nll/dim {epoch_loss / max(1, n // batch_size):.4f}")
        self.eval()
        return self
