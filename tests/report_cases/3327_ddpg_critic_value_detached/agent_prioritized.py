"""DDPG agent with a simple replay buffer and soft target updates."""
import copy
import random
import torch
import torch.nn.functional as F

from nets import GraphActor, GraphCritic


class ReplayBuffer:
    def __init__(self, size):
        self.size, self.data = size, []

    def add(self, *transition):
        self.data.append(transition)
        self.data = self.data[-self.size:]

    def sample(self, n):
        batch = random.sample(self.data, n)
        return [torch.stack(x) for x in zip(*batch)]


class DDPGAgent:
    def __init__(self, cfg):
        self.cfg = cfg
        self.actor = GraphActor(cfg["feat_dim"], cfg["hidden"], cfg["act_dim"])
        self.critic = GraphCritic(cfg["feat_dim"], cfg["hidden"], cfg["act_dim"])
        self.actor_target = copy.deepcopy(self.actor)
        self.critic_target = copy.deepcopy(self.critic)
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=cfg["actor_lr"])
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=cfg["critic_lr"])
        self.buffer = ReplayBuffer(cfg["buffer_size"])

    def choose_action(self, x, adj, noise=0.1):
        with torch.no_grad():
            a = self.actor(x, adj)
        return (a + noise * torch.randn_like(a)).clamp(-1, 1)

    def soft_update(self, target, source):
        tau = self.cfg["tau"]
        with torch.no_grad():
            for t, s in zip(target.parameters(), source.parameters()):
                t.mul_(1 - tau).add_(tau * s)

    def learn_one_step(self):
        x, adj, a, r, x2, done = self.buffer.sample(self.cfg["batch_size"])
        a2 = self.actor_target(x2, adj)
        critic_value_next = self.critic_target(x2, adj, a2)
        critic_target = (r + self.cfg["gamma"] * critic_value_next * (1 - done)).detach()
        critic_value = self.critic(x, adj, a)
        td_error = (critic_value.detach() - critic_target).abs().mean(-1)
        self.priorities = td_error + 1e-3
        critic_loss = F.mse_loss(critic_value, critic_target)
        self.critic_optimizer.zero_grad()
        critic_loss.backward()
        self.critic_optimizer.step()

        actor_loss = -self.critic(x, adj, self.actor(x, adj)).mean()
        self.actor_optimizer.zero_grad()
        actor_loss.backward()
        self.actor_optimizer.step()

        self.soft_update(self.actor_target, self.actor)
        self.soft_update(self.critic_target, self.critic)
        return critic_loss.item(), actor_loss.item()
