"""DDPG-based agent with a convolutional observation encoder (URLB / CIC style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, obs_shape):
        super().__init__()
        self.convnet = nn.Sequential(nn.Conv2d(obs_shape[0], 8, 3, stride=2), nn.ReLU(),
                                     nn.Conv2d(8, 8, 3, stride=1), nn.ReLU())
        self.repr_dim = 8 * 5 * 5

    def forward(self, obs):
        return self.convnet(obs / 255.0 - 0.5).flatten(1)


class Actor(nn.Module):
    def __init__(self, repr_dim, action_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(repr_dim, 64), nn.ReLU(), nn.Linear(64, action_dim), nn.Tanh())

    def forward(self, h):
        return self.net(h)


class Critic(nn.Module):
    def __init__(self, repr_dim, action_dim):
        super().__init__()
        self.q = nn.Sequential(nn.Linear(repr_dim + action_dim, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, h, action):
        return self.q(torch.cat([h, action], dim=-1))


class CICAgent:
    def __init__(self, obs_shape, action_dim, lr=1e-4, gamma=0.99):
        self.encoder = Encoder(obs_shape)
        self.actor = Actor(self.encoder.repr_dim, action_dim)
        self.critic = Critic(self.encoder.repr_dim, action_dim)
        self.encoder_opt = torch.optim.Adam(self.encoder.parameters(), lr=lr)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=lr)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=lr)
        self.gamma = gamma

    def aug_and_encode(self, obs):
        obs = obs + torch.randint(-4, 5, obs.shape).float()  # cheap stand-in for random shift
        return self.encoder(obs)

    def compute_intr_reward(self, obs, next_obs):
        return (next_obs - obs).pow(2).mean(-1, keepdim=True)  # stand-in for the CIC entropy reward

    def update_critic(self, obs, action, reward, discount, next_obs):
        with torch.no_grad():
            next_action = self.actor(next_obs)
            target_q = reward + discount * self.gamma * self.critic(next_obs, next_action)
        q = self.critic(obs, action)
        critic_loss = F.mse_loss(q, target_q)
        self.encoder_opt.zero_grad(set_to_none=True)
        self.critic_opt.zero_grad(set_to_none=True)
        critic_loss.backward()
        self.critic_opt.step()
        self.encoder_opt.step()
        return critic_loss.item()

    def update_actor(self, obs):
        action = self.actor(obs)
        actor_loss = -self.critic(obs, action).mean()
        self.actor_opt.zero_grad(set_to_none=True)
        actor_loss.backward()
        self.actor_opt.step()
        return actor_loss.item()

    def update(self, batch):
        obs, action, extr_reward, discount, next_obs = batch
        obs = self.aug_and_encode(obs)  # gradient flows into the encoder through the critic loss
        with torch.no_grad():
            next_obs = self.aug_and_encode(next_obs)
            reward = self.compute_intr_reward(obs, next_obs)
        metrics = {"critic_loss": self.update_critic(obs, action, reward, discount, next_obs)}
        metrics["actor_loss"] = self.update_actor(obs.detach())
        return metrics
