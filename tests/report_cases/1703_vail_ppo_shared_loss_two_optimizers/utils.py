import math

import torch


def get_action(mu, std):
    action = torch.normal(mu, std)
    return action.data.numpy()


def log_prob_density(x, mu, std):
    logstd = torch.log(std)
    log_density = -(x - mu).pow(2) / (2 * std.pow(2)) - 0.5 * math.log(2 * math.pi) - logstd
    return log_density.sum(1, keepdim=True)


def get_entropy(mu, std):
    dist = torch.distributions.Normal(mu, std)
    return dist.entropy().mean()
