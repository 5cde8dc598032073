"""Shared sequence encoder for actor and critic (AMAGO-style alternate backward).

The actor loss is back-propagated first with the graph retained, the critic's gradients
from it are discarded, then the critic loss is back-propagated; one optimizer step follows.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class TrajEncoder(nn.Module):
    def __init__(self, obs_dim, d_model=32):
        super().__init__()
        self.inp = nn.Linear(obs_dim, d_model)
        self.gru = nn.GRU(d_model, d_model, batch_first=True)

    def forward(self, obs_seq):
        out, _ = self.gru(F.relu(self.inp(obs_seq)))
        return out


class Actor(nn.Module):
    def __init__(self, d_model, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_model, 64), nn.ReLU(), nn.Linear(64, act_dim), nn.Tanh())

    def forward(self, state):
        return self.net(state)


class Critic(nn.Module):
    def __init__(self, d_model, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_model + act_dim, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, state, action):
        return self.net(torch.cat((state, action), dim=-1))


class Agent(nn.Module):
    def __init__(self, obs_dim=6, act_dim=2, d_model=32, gamma=0.99, tau=0.005):
        super().__init__()
        self.traj_encoder = TrajEncoder(obs_dim, d_model)
        self.actor = Actor(d_model, act_dim)
        self.critic = Critic(d_model, act_dim)
        self.target_critic = copy.deepcopy(self.critic).requires_grad_(False)
        self.target_actor = copy.deepcopy(self.actor).requires_grad_(False)
        self.gamma, self.tau = gamma, tau

    def losses(self, obs, actions, rewards, dones):
        s_rep = self.traj_encoder(obs)
        s, s_next = s_rep[:, :-1], s_rep[:, 1:]
        with torch.no_grad():
            a_next = self.target_actor(s_next)
            q_next = self.target_critic(s_next, a_next)
            td_target = rewards + self.gamma * (1.0 - dones) * q_next
        critic_loss = F.mse_loss(self.critic(s, actions), td_target)
        actor_loss = -self.critic(s, self.actor(s)).mean()
        return actor_loss, critic_loss

    @torch.no_grad()
    def soft_sync(self):
        for target, online in ((self.target_critic, self.critic), (self.target_actor, self.actor)):
            for tp, p in zip(target.parameters(), online.parameters()):
                tp.mul_(1 - self.tau).add_(p, alpha=self.tau)


def sample(batch=8, length=6, obs_dim=6, act_dim=2):
    obs = torch.randn(batch, length + 1, obs_dim)
    return (obs, torch.rand(batch, length, act_dim) * 2 - 1, obs[:, 1:, :1],
            torch.zeros(batch, length, 1))


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = Agent()
    optimizer = torch.optim.AdamW(
        [p for name, p in agent.named_parameters() if not name.startswith("target_")], lr=3e-4)
    for step in range(5):
        actor_loss, critic_loss = agent.losses(*sample())
        optimizer.zero_grad(set_to_none=True)
        actor_loss.backward(retain_graph=True)
        for p in agent.critic.parameters():
            p.grad = None
        critic_loss.backward()
        nn.utils.clip_grad_norm_(agent.parameters(), 1.0)
        optimizer.step()
        agent.soft_sync()
        print(f"step {step} actor {actor_loss.item():.4f} critic {critic_loss.item():.4f}")
