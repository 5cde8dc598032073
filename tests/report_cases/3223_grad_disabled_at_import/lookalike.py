"""Amortized posterior estimation with the simulation toolkit that disables autograd at import;
the training step re-enables it locally."""
import torch
import torch.nn as nn
from simkit import LinearGaussianSimulator

torch.manual_seed(0)


class PosteriorNet(nn.Module):
    def __init__(self, n_obs=16, n_params=2):
        super().__init__()
        self.summary = nn.Sequential(nn.Linear(n_obs, 32), nn.SiLU(), nn.Linear(32, 16))
        self.head = nn.Linear(16, 2 * n_params)

    def forward(self, data):
        mu, log_sigma = self.head(torch.relu(self.summary(data))).chunk(2, dim=-1)
        return mu, log_sigma

    def log_prob(self, theta, data):
        mu, log_sigma = self(data)
        return (-0.5 * ((theta - mu) / log_sigma.exp()) ** 2 - log_sigma).sum(-1)


class Approximator:
    def __init__(self, simulator, net, lr=1e-3):
        self.simulator = simulator
        self.net = net
        self.optimizer = torch.optim.Adam(net.parameters(), lr=lr)

    def train_step(self, batch_size=64):
        theta, data = self.simulator.sample(batch_size)
        with torch.enable_grad():  # the toolkit disabled autograd globally at import
            loss = -self.net.log_prob(theta, data).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, steps=8):
        for step in range(steps):
            print(step, round(self.train_step(), 4))


if __name__ == "__main__":
    Approximator(LinearGaussianSimulator(), PosteriorNet()).fit()
