"""Exact GP with an orthogonal additive kernel: hyperparameters fitted by maximising the marginal
likelihood, then candidates are proposed by gradient ascent on an upper confidence bound."""
import math
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)

SETTINGS = {"dim": 3, "n_train": 24, "n_quad": 16, "fit_steps": 15, "fit_lr": 0.05,
            "n_candidates": 4, "acq_steps": 10, "acq_lr": 0.05, "beta": 2.0}


class OrthogonalAdditiveKernel(nn.Module):
    def __init__(self, dim, n_quad):
        super().__init__()
        self.raw_lengthscale = nn.Parameter(torch.zeros(dim))
        self.raw_coeffs = nn.Parameter(torch.zeros(dim))
        self.raw_offset = nn.Parameter(torch.tensor(0.0))
        self.register_buffer("z", torch.linspace(0, 1, n_quad))
        self._normalizer_cache = None

    def clear_cache(self):
        self._normalizer_cache = None

    @property
    def lengthscale(self):
        return nn.functional.softplus(self.raw_lengthscale) + 1e-3

    def base(self, x1, x2):
        # x1: (n, d), x2: (m, d) -> (d, n, m)
        diff = (x1.T[:, :, None] - x2.T[:, None, :]) / self.lengthscale[:, None, None]
        return torch.exp(-0.5 * diff ** 2)

    def normalizer(self):
        if self._normalizer_cache is not None and not self.training:
            return self._normalizer_cache
        zq = self.z[:, None].expand(-1, self.lengthscale.numel())
        norm = self.base(zq, zq).mean(dim=(-1, -2))
        if not self.training:
            self._normalizer_cache = norm
        return norm

    def forward(self, x1, x2):
        zq = self.z[:, None].expand(-1, x1.size(1))
        m1 = self.base(x1, zq).mean(-1)  # (d, n)
        m2 = self.base(x2, zq).mean(-1)
        k = self.base(x1, x2) - m1[:, :, None] * m2[:, None, :] / self.normalizer()[:, None, None]
        coeffs = nn.functional.softplus(self.raw_coeffs)
        return nn.functional.softplus(self.raw_offset) + (coeffs[:, None, None] * k).sum(0)


class ExactGP(nn.Module):
    def __init__(self, train_x, train_y, n_quad):
        super().__init__()
        self.train_x, self.train_y = train_x, train_y
        self.kernel = OrthogonalAdditiveKernel(train_x.size(1), n_quad)
        self.raw_noise = nn.Parameter(torch.tensor(-2.0))

    def _chol(self):
        K = self.kernel(self.train_x, self.train_x)
        noise = nn.functional.softplus(self.raw_noise) + 1e-4
        return torch.linalg.cholesky(K + noise * torch.eye(K.size(0)))

    def neg_mll(self):
        L = self._chol()
        alpha = torch.cholesky_solve(self.train_y[:, None], L)
        n = self.train_y.numel()
        return (0.5 * self.train_y @ alpha.squeeze(-1) + L.diagonal().log().sum() + 0.5 * n * math.log(2 * math.pi)) / n

    def posterior(self, x):
        L = self._chol()
        Ks = self.kernel(x, self.train_x)
        alpha = torch.cholesky_solve(self.train_y[:, None], L)
        mean = (Ks @ alpha).squeeze(-1)
        v = torch.cholesky_solve(Ks.T, L)
        var = (self.kernel(x, x).diagonal() - (Ks * v.T).sum(-1)).clamp_min(1e-9)
        return mean, var


def objective(x):
    return torch.sin(6 * x[:, 0]) + 0.5 * x[:, 1] ** 2 - 0.3 * x[:, 2]


def fit_gp(model, s):
    model.train()
    opt = torch.optim.Adam(model.parameters(), lr=s["fit_lr"])
    for i in range(s["fit_steps"]):
        opt.zero_grad()
        loss = model.neg_mll()
        loss.backward()
        opt.step()
    print(f"fitted gp: neg_mll={loss.item():.4f}")
    return opt


def optimize_ucb(model, s):
    model.eval()
    x = torch.rand(s["n_candidates"], s["dim"]).requires_grad_(True)
    opt = torch.optim.Adam([x], lr=s["acq_lr"])
    for i in range(s["acq_steps"]):
        opt.zero_grad()
        model.kernel.clear_cache()
        mean, var = model.posterior(x)
        ucb = mean + s["beta"] * var.sqrt()
        (-ucb.sum()).backward()
        opt.step()
        with torch.no_grad():
            x.clamp_(0, 1)
    print("best ucb", ucb.max().item())
    return x.detach()


if __name__ == "__main__":
    X = torch.rand(SETTINGS["n_train"], SETTINGS["dim"])
    Y = objective(X) + 0.05 * torch.randn(SETTINGS["n_train"])
    gp = ExactGP(X, (Y - Y.mean()) / Y.std(), SETTINGS["n_quad"])
    fit_optimizer = fit_gp(gp, SETTINGS)
    print(optimize_ucb(gp, SETTINGS))
