"""REINFORCE with per-episode lists, and a DCGAN with the usual detach."""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        return torch.softmax(self.net(x), -1)


def finish_episode(policy, optimizer, gamma=0.99):
    R, returns = 0.0, []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    loss = []
    for log_prob, R in zip(policy.saved_log_probs, returns):
        loss.append(-log_prob * R)
    optimizer.zero_grad()
    torch.stack(loss).sum().backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]


def run(policy, optimizer, episodes=3):
    for _ in range(episodes):
        for t in range(5):
            probs = policy(torch.randn(4))
            m = Categorical(probs)
            action = m.sample()
            policy.saved_log_probs.append(m.log_prob(action))
            policy.rewards.append(float(action))
        finish_episode(policy, optimizer)


def gan(netG, netD, optG, optD, steps=3):
    bce = nn.BCELoss()
    for _ in range(steps):
        real = torch.rand(4, 2)
        fake = netG(torch.randn(4, 3))
        optD.zero_grad()
        d_loss = bce(netD(real), torch.ones(4, 1)) + bce(netD(fake.detach()), torch.zeros(4, 1))
        d_loss.backward()
        optD.step()
        optG.zero_grad()
        g_loss = bce(netD(fake), torch.ones(4, 1))
        g_loss.backward()
        optG.step()


if __name__ == "__main__":
    p = Policy()
    run(p, torch.optim.Adam(p.parameters()))
    G = nn.Linear(3, 2)
    D = nn.Sequential(nn.Linear(2, 1), nn.Sigmoid())
    gan(G, D, torch.optim.Adam(G.parameters()), torch.optim.Adam(D.parameters()))
