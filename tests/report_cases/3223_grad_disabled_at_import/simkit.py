"""Tiny amortized-inference toolkit: simulators and summary statistics.

The backend is meant for fast simulation, so gradients are switched off by default."""
import torch

# Turn off gradients by default (simulation does not need them)
torch.autograd.set_grad_enabled(False)


class LinearGaussianSimulator:
    def __init__(self, n_obs=16, noise=0.3):
        self.n_obs = n_obs
        self.noise = noise

    def sample_prior(self, batch):
        return torch.randn(batch, 2)

    def simulate(self, theta):
        x = torch.linspace(-1, 1, self.n_obs)
        y = theta[:, :1] * x + theta[:, 1:]
        return y + self.noise * torch.randn_like(y)

    def sample(self, batch):
        theta = self.sample_prior(batch)
        return theta, self.simulate(theta)
