import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
OBS, ACTS, EPISODE_LEN = 4, 2, 6


class ValueFunction(nn.Module):
    def __init__(self, in_dim, lr=1e-2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.Tanh(), nn.Linear(32, 1))
        self.optimizer = torch.optim.SGD(self.parameters(), lr=lr)

    def forward(self, x):
        return self.net(x)

    def mse_loss(self, prediction, target):
        return F.mse_loss(prediction, target)

    def sgd(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class PolicyNetwork(nn.Module):
    def __init__(self, lr=1e-3, clip=0.2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh(), nn.Linear(32, ACTS))
        self.optimizer = torch.optim.Adam(self.parameters(), lr=lr)
        self.clip = clip

    def forward(self, s):
        return torch.distributions.Categorical(logits=self.net(s))

    def clipped_surrogate(self, s, a, old_log_prob, advantage):
        ratio = torch.exp(self(s).log_prob(a) - old_log_prob)
        return torch.min(ratio * advantage, torch.clamp(ratio, 1 - self.clip, 1 + self.clip) * advantage)

    def sga(self, surrogates):
        objective = torch.stack(surrogates).mean()
        self.optimizer.zero_grad()
        (-objective).backward()
        self.optimizer.step()


policy = PolicyNetwork()
V = ValueFunction(OBS)
Q = ValueFunction(OBS + 1)

for episode in range(3):
    surrogates = []
    s = torch.randn(OBS)
    for t in range(EPISODE_LEN):
        with torch.no_grad():
            dist = policy(s)
            a = dist.sample()
            old_log_prob = dist.log_prob(a)
        r = torch.randn(1)
        s_next = torch.randn(OBS)
        v = V(s)
        q = Q(torch.cat([s, a.float().reshape(1)]))
        V.sgd(V.mse_loss(v, r + 0.99 * V(s_next).detach()))
        Q.sgd(Q.mse_loss(q, r + 0.99 * V(s_next).detach()))
        with torch.no_grad():
            advantage = Q(torch.cat([s, a.float().reshape(1)])) - V(s)
        surrogates.append(policy.clipped_surrogate(s, a, old_log_prob, advantage))
        s = s_next
    policy.sga(surrogates)
