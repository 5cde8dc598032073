import torch
import torch.nn as nn


def mlp(sizes, activation=nn.ReLU, output_activation=nn.Identity):
    layers = []
    for j in range(len(sizes) - 1):
        act = activation if j < len(sizes) - 2 else output_activation
        layers += [nn.Linear(sizes[j], sizes[j + 1]), act()]
    return nn.Sequential(*layers)


class MLPActorCritic(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden_sizes=(32, 32), act_limit=1.0):
        super().__init__()
        self.act_limit = act_limit
        self.policy = mlp([obs_dim] + list(hidden_sizes) + [act_dim], output_activation=nn.Tanh)
        self.q = mlp([obs_dim + act_dim] + list(hidden_sizes) + [1])

    def pi(self, x):
        return self.act_limit * self.policy(x)

    def q_value(self, x, a):
        return self.q(torch.cat([x, a], dim=1)).squeeze(1)

    def forward(self, x, a):
        pi = self.pi(x)
        q = self.q_value(x, a)
        q_pi = self.q_value(x, pi)
        return pi, q, q_pi
