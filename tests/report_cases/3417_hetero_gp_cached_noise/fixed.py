"""Heteroskedastic GP regression: an exact GP whose per-point observation
noise comes from a learnable log-noise network, fitted jointly by maximising
the marginal likelihood. Kernel/likelihood pieces live in gp_model.py."""
import torch
import torch.nn as nn

from gp_model import LogNoiseNet, RBFKernel, gaussian_mll, heteroskedastic_data, posterior_mean

torch.manual_seed(0)


class HeteroskedasticGP(nn.Module):
    def __init__(self, train_x, train_y):
        super().__init__()
        self.train_x, self.train_y = train_x, train_y
        self.kernel = RBFKernel()
        self.noise_model = LogNoiseNet()

    @property
    def train_noise(self):
        return self.noise_model(self.train_x).exp()

    def marginal_log_likelihood(self):
        K = self.kernel(self.train_x, self.train_x)
        return gaussian_mll(K, self.train_y, self.train_noise)

    def predict(self, test_x):
        with torch.no_grad():
            return posterior_mean(self.kernel, self.train_x, self.train_y, self.train_noise, test_x)


def fit_gp(model, iters=40, lr=0.05):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for it in range(iters):
        loss = -model.marginal_log_likelihood()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if it % 10 == 0:
            print(f"iter {it}: -mll {loss.item():.3f} lengthscale {model.kernel.log_lengthscale.exp().item():.3f}")
    return model


def main():
    train_x, train_y = heteroskedastic_data()
    model = fit_gp(HeteroskedasticGP(train_x, train_y))
    test_x = torch.linspace(-3, 3, 7).unsqueeze(1)
    print("posterior mean:", model.predict(test_x).squeeze(1).round(decimals=2).tolist())


if __name__ == "__main__":
    main()
