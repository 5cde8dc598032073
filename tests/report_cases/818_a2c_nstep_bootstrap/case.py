"""Synchronous n-step advantage actor-critic on a toy environment."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
OBS, N_ACT, N_STEPS, GAMMA = 4, 2, 5, 0.99


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(OBS, 64), nn.ReLU())
        self.pi = nn.Linear(64, N_ACT)
        self.v = nn.Linear(64, 1)

    def forward(self, x):
        h = self.shared(x)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def env_step(obs, action):
    reward = 1.0 if action == int(obs[0] > 0) else -0.1
    return torch.randn(OBS), reward


net = ActorCritic()
optimizer = torch.optim.RMSprop(net.parameters(), lr=7e-4)
running_reward = 0.0
obs = torch.randn(OBS)
for update in range(30):
    log_probs, values, rewards, entropies = [], [], [], []
    for _ in range(N_STEPS):
        dist, value = net(obs)
        action = dist.sample()
        obs, reward = env_step(obs, action.item())
        log_probs.append(dist.log_prob(action))
        entropies.append(dist.entropy())
        values.append(value)
        rewards.append(reward)
    with torch.no_grad():
        _, R = net(obs)
    returns = []
    for r in reversed(rewards):
        R = r + GAMMA * R
        returns.insert(0, R)
    returns, values = torch.stack(returns), torch.stack(values)
    advantages = returns - values.detach()
    policy_loss = -(torch.stack(log_probs) * advantages).mean()
    value_loss = F.mse_loss(values, returns)
    loss = policy_loss + 0.5 * value_loss - 0.01 * torch.stack(entropies).mean()
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(net.parameters(), 0.5)
    optimizer.step()
    running_reward = 0.95 * running_reward + 0.05 * sum(rewards)
print(round(running_reward, 3))
