"""DDPG/TD3-style update on random transitions: critic first, then a delayed actor update."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Actor(nn.Module):
    def __init__(self, s_dim, a_dim, max_action=1.0):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(s_dim, 32), nn.ReLU(), nn.Linear(32, a_dim), nn.Tanh())
        self.max_action = max_action

    def forward(self, s):
        return self.max_action * self.net(s)


class Critic(nn.Module):
    def __init__(self, s_dim, a_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(s_dim + a_dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, s, a):
        return self.net(torch.cat([s, a], dim=1))


class Agent:
    def __init__(self, s_dim, a_dim, gamma=0.99, tau=0.005, policy_delay=2, target_noise=0.2):
        self.actor = Actor(s_dim, a_dim)
        self.actor_target = copy.deepcopy(self.actor)
        self.critic = Critic(s_dim, a_dim)
        self.critic_target = copy.deepcopy(self.critic)
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.gamma, self.tau = gamma, tau
        self.policy_delay = policy_delay
        self.target_noise = target_noise
        self.total_it = 0

    def soft_update(self, net, target):
        with torch.no_grad():
            for p, tp in zip(net.parameters(), target.parameters()):
                tp.mul_(1 - self.tau).add_(p, alpha=self.tau)

    def train(self, state, action, reward, next_state, not_done):
        self.total_it += 1
        with torch.no_grad():
            noise = (torch.randn_like(action) * self.target_noise).clamp(-0.5, 0.5)
            next_action = (self.actor_target(next_state) + noise).clamp(-1, 1)
            target_Q = reward + not_done * self.gamma * self.critic_target(next_state, next_action)

        current_Q = self.critic(state, action)
        critic_loss = F.mse_loss(current_Q, target_Q)
        self.critic_optimizer.zero_grad()
        critic_loss.backward()
        self.critic_optimizer.step()

        info = {"critic": critic_loss.item()}
        if self.total_it % self.policy_delay == 0:
            actor_loss = -self.critic(state, self.actor(state)).mean()
            self.actor_optimizer.zero_grad()
            actor_loss.backward()
            self.actor_optimizer.step()
            self.soft_update(self.critic, self.critic_target)
            self.soft_update(self.actor, self.actor_target)
            info["actor"] = actor_loss.item()
        return info


def main():
    torch.manual_seed(0)
    agent = Agent(s_dim=4, a_dim=2)
    for it in range(4):
        s = torch.randn(16, 4)
        a = torch.rand(16, 2) * 2 - 1
        r = torch.randn(16, 1)
        s2 = s + 0.1 * torch.randn(16, 4)
        nd = (torch.rand(16, 1) > 0.1).float()
        print(it, agent.train(s, a, r, s2, nd))


if __name__ == "__main__":
    main()
