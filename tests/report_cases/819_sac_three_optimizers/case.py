"""Soft Actor-Critic update (Spinning Up layout) with automatic entropy tuning."""
import copy
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
OBS, ACT, GAMMA, POLYAK = 3, 2, 0.99, 0.995


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS, 32), nn.ReLU())
        self.mu, self.log_std = nn.Linear(32, ACT), nn.Linear(32, ACT)

    def forward(self, obs):
        h = self.net(obs)
        std = self.log_std(h).clamp(-5, 2).exp()
        u = self.mu(h) + std * torch.randn_like(std)
        logp = torch.distributions.Normal(self.mu(h), std).log_prob(u).sum(-1)
        logp = logp - (2 * (0.6931 - u - F.softplus(-2 * u))).sum(-1)
        return torch.tanh(u), logp


def q_net():
    return nn.Sequential(nn.Linear(OBS + ACT, 32), nn.ReLU(), nn.Linear(32, 1))


pi, q1, q2 = Policy(), q_net(), q_net()
q1_targ, q2_targ = copy.deepcopy(q1), copy.deepcopy(q2)
q_params = list(itertools.chain(q1.parameters(), q2.parameters()))
pi_optimizer = torch.optim.Adam(pi.parameters(), lr=1e-3)
q_optimizer = torch.optim.Adam(q_params, lr=1e-3)
log_alpha = torch.zeros(1, requires_grad=True)
alpha_optimizer = torch.optim.Adam([log_alpha], lr=1e-3)
target_entropy = -float(ACT)
Q = lambda net, o, a: net(torch.cat([o, a], -1)).squeeze(-1)

for it in range(15):
    o, a, r, o2 = torch.randn(32, OBS), torch.rand(32, ACT) * 2 - 1, torch.randn(32), torch.randn(32, OBS)
    alpha = log_alpha.exp().item()
    with torch.no_grad():
        a2, logp_a2 = pi(o2)
        backup = r + GAMMA * (torch.min(Q(q1_targ, o2, a2), Q(q2_targ, o2, a2)) - alpha * logp_a2)
    loss_q = F.mse_loss(Q(q1, o, a), backup) + F.mse_loss(Q(q2, o, a), backup)
    q_optimizer.zero_grad()
    loss_q.backward()
    q_optimizer.step()

    for p in q_params:
        p.requires_grad = False
    a_pi, logp_pi = pi(o)
    loss_pi = (alpha * logp_pi - torch.min(Q(q1, o, a_pi), Q(q2, o, a_pi))).mean()
    pi_optimizer.zero_grad()
    loss_pi.backward()
    pi_optimizer.step()
    for p in q_params:
        p.requires_grad = True

    alpha_loss = -(log_alpha * (logp_pi.detach() + target_entropy)).mean()
    alpha_optimizer.zero_grad()
    alpha_loss.backward()
    alpha_optimizer.step()

    with torch.no_grad():
        for p, p_targ in zip(itertools.chain(q1.parameters(), q2.parameters()),
                             itertools.chain(q1_targ.parameters(), q2_targ.parameters())):
            p_targ.data.mul_(POLYAK)
            p_targ.data.add_((1 - POLYAK) * p.data)
print(loss_q.item(), loss_pi.item(), log_alpha.item())
