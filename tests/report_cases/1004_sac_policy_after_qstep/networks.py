import math

import torch
import torch.nn as nn
import torch.nn.functional as F

LOG_STD_MIN, LOG_STD_MAX = -20, 2


def mlp(in_dim, out_dim, hidden=(32, 32)):
    layers, d = [], in_dim
    for h in hidden:
        layers += [nn.Linear(d, h), nn.ReLU()]
        d = h
    layers.append(nn.Linear(d, out_dim))
    return nn.Sequential(*layers)


class ConcatMlp(nn.Module):
    """Q(s, a): concatenates its inputs along the last dim, like rlkit's ConcatMlp."""

    def __init__(self, obs_dim, action_dim):
        super().__init__()
        self.net = mlp(obs_dim + action_dim, 1)

    def forward(self, *inputs, **kwargs):
        return self.net(torch.cat(inputs, dim=-1))


class TanhGaussianPolicy(nn.Module):
    def __init__(self, obs_dim, action_dim):
        super().__init__()
        self.trunk = mlp(obs_dim, 2 * action_dim)

    def forward(self, obs, deterministic=False):
        mean, log_std = self.trunk(obs).chunk(2, dim=-1)
        log_std = log_std.clamp(LOG_STD_MIN, LOG_STD_MAX)
        std = log_std.exp()
        if deterministic:
            pre_tanh = mean
        else:
            pre_tanh = mean + std * torch.randn_like(mean)
        action = torch.tanh(pre_tanh)
        log_prob = (-((pre_tanh - mean) ** 2) / (2 * std ** 2) - log_std - 0.5 * math.log(2 * math.pi))
        log_prob = log_prob - torch.log(1 - action.pow(2) + 1e-6)
        return action, log_prob.sum(dim=-1, keepdim=True)


def soft_update_from_to(source, target, tau):
    with torch.no_grad():
        for tp, p in zip(target.parameters(), source.parameters()):
            tp.mul_(1.0 - tau).add_(p, alpha=tau)
