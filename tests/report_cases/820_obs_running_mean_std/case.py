"""Value regression with a RunningMeanStd observation normaliser (rl-games / SB3 VecNormalize pattern)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RunningMeanStd(nn.Module):
    def __init__(self, shape, epsilon=1e-5):
        super().__init__()
        self.epsilon = epsilon
        self.register_buffer("running_mean", torch.zeros(shape))
        self.register_buffer("running_var", torch.ones(shape))
        self.register_buffer("count", torch.ones(()))

    def _update(self, x):
        batch_mean, batch_var, batch_count = x.mean(0), x.var(0, unbiased=False), x.size(0)
        delta = batch_mean - self.running_mean
        tot = self.count + batch_count
        m2 = self.running_var * self.count + batch_var * batch_count + delta ** 2 * self.count * batch_count / tot
        self.running_mean.add_(delta * batch_count / tot)
        self.running_var.copy_(m2 / tot)
        self.count.fill_(tot)

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                self._update(x)
        return (x - self.running_mean) / torch.sqrt(self.running_var + self.epsilon)


class ValueNet(nn.Module):
    def __init__(self, obs_dim=6):
        super().__init__()
        self.obs_rms = RunningMeanStd(obs_dim)
        self.v = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, obs):
        return self.v(self.obs_rms(obs)).squeeze(-1)


net = ValueNet()
optimizer = torch.optim.Adam(net.parameters(), lr=3e-3)
ret_mean, ret_sq, n_seen = 0.0, 0.0, 0
for it in range(25):
    obs = torch.randn(32, 6) * 3 + 5
    returns = obs[:, 0] * 0.5 + torch.randn(32) * 0.1
    for r in returns.tolist():
        n_seen += 1
        ret_mean += (r - ret_mean) / n_seen
        ret_sq += (r * r - ret_sq) / n_seen
    scale = math.sqrt(max(ret_sq - ret_mean ** 2, 1e-8))
    loss = F.mse_loss(net(obs), returns / scale)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
net.eval()
with torch.no_grad():
    print(loss.item(), net.obs_rms.running_mean[:2].tolist(), net(obs[:2]).tolist())
