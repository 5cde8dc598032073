import torch
from torch import nn
from torch.distributions import Normal

LOG_STD_MIN, LOG_STD_MAX = -20, 2


def mlp(in_dim, out_dim, hidden=(64, 64)):
    layers, last = [], in_dim
    for h in hidden:
        layers += [nn.Linear(last, h), nn.ReLU()]
        last = h
    layers.append(nn.Linear(last, out_dim))
    return nn.Sequential(*layers)


class ConcatMlp(nn.Module):
    def __init__(self, obs_dim, action_dim):
        super().__init__()
        self.net = mlp(obs_dim + action_dim, 1)

    def forward(self, obs, actions):
        return self.net(torch.cat([obs, actions], dim=1))


class TanhGaussianPolicy(nn.Module):
    def __init__(self, obs_dim, action_dim):
        super().__init__()
        self.trunk = mlp(obs_dim, 2 * action_dim)

    def forward(self, obs, reparameterize=True, return_log_prob=True):
        mean, log_std = self.trunk(obs).chunk(2, dim=-1)
        std = log_std.clamp(LOG_STD_MIN, LOG_STD_MAX).exp()
        dist = Normal(mean, std)
        pre_tanh = dist.rsample() if reparameterize else dist.sample()
        action = torch.tanh(pre_tanh)
        log_prob = None
        if return_log_prob:
            log_prob = dist.log_prob(pre_tanh) - torch.log(1 - action.pow(2) + 1e-6)
            log_prob = log_prob.sum(dim=1, keepdim=True)
        return action, mean, log_std, log_prob
