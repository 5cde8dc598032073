"""Two-stage heteroskedastic GP regression: a log-noise network is first fit
to squared residuals of a pilot model, then frozen; its noise estimates are
cached once and an exact GP's kernel hyper-parameters are fitted by
maximising the marginal likelihood. Kernel/likelihood pieces: gp_model.py."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from gp_model import LogNoiseNet, RBFKernel, gaussian_mll, heteroskedastic_data, posterior_mean

torch.manual_seed(0)


def fit_noise_model(train_x, train_y, iters=40, lr=0.02):
    coeffs = torch.linalg.lstsq(torch.cat([torch.sin(2 * train_x), torch.ones_like(train_x)], 1),
                                train_y.unsqueeze(1)).solution
    resid2 = (train_y.unsqueeze(1) - torch.cat([torch.sin(2 * train_x), torch.ones_like(train_x)], 1) @ coeffs).pow(2)
    noise_model = LogNoiseNet()
    optimizer = torch.optim.Adam(noise_model.parameters(), lr=lr)
    for _ in range(iters):
        log_var = noise_model(train_x)
        loss = F.gaussian_nll_loss(torch.zeros_like(log_var), resid2.sqrt().squeeze(1), log_var.exp())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return noise_model.requires_grad_(False)


class HeteroskedasticGP(nn.Module):
    def __init__(self, train_x, train_y, noise_model):
        super().__init__()
        self.train_x, self.train_y = train_x, train_y
        self.kernel = RBFKernel()
        with torch.no_grad():
            self.train_noise = noise_model(train_x).exp()

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
    noise_model = fit_noise_model(train_x, train_y)
    model = fit_gp(HeteroskedasticGP(train_x, train_y, noise_model))
    test_x = torch.linspace(-3, 3, 7).unsqueeze(1)
    print("posterior mean:", model.predict(test_x).squeeze(1).round(decimals=2).tolist())


if __name__ == "__main__":
    main()
