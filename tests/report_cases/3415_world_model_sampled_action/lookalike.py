"""Dreamer-style agent with discrete actions on a toy control task: a learned
world model (dynamics + reward), a critic trained on imagined returns, and an
actor trained by backpropagating imagined returns through the world model."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
S, A, H, GAMMA = 4, 3, 5, 0.95


def true_env_step(s, a):
    push = torch.tensor([-1.0, 0.0, 1.0])[a].unsqueeze(1)
    s_next = 0.9 * s + 0.1 * torch.cat([push, -push, s[:, :2]], dim=1)
    reward = -(s_next[:, :1] - 0.5).pow(2).squeeze(1)
    return s_next, reward


def mlp(inp, out, hidden=64):
    return nn.Sequential(nn.Linear(inp, hidden), nn.ELU(), nn.Linear(hidden, hidden), nn.ELU(), nn.Linear(hidden, out))


class WorldModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.dynamics = mlp(S + A, S)
        self.reward = mlp(S + A, 1)

    def forward(self, s, a_onehot):
        x = torch.cat([s, a_onehot], dim=1)
        return s + self.dynamics(x), self.reward(x).squeeze(1)


class Agent:
    def __init__(self):
        self.wm, self.actor, self.critic = WorldModel(), mlp(S, A), mlp(S, 1)
        self.opt_wm = torch.optim.Adam(self.wm.parameters(), lr=1e-3)
        self.opt_actor = torch.optim.Adam(self.actor.parameters(), lr=3e-4)
        self.opt_critic = torch.optim.Adam(self.critic.parameters(), lr=1e-3)

    @torch.no_grad()
    def collect(self, n=256):
        s = torch.randn(n, S)
        a = Categorical(logits=self.actor(s)).sample()
        s_next, r = true_env_step(s, a)
        return s, a, s_next, r

    def train_world_model(self, s, a, s_next, r):
        pred_s, pred_r = self.wm(s, F.one_hot(a, A).float())
        loss = F.mse_loss(pred_s, s_next) + F.mse_loss(pred_r, r)
        self.opt_wm.zero_grad()
        loss.backward()
        self.opt_wm.step()
        return loss.item()

    def imagine(self, start):
        s, ret, discount = start, 0.0, 1.0
        for _ in range(H):
            a = F.gumbel_softmax(self.actor(s), tau=1.0, hard=True)
            s, r = self.wm(s, a)
            ret = ret + discount * r
            discount *= GAMMA
        return ret + discount * self.critic(s).squeeze(1)

    def train_behaviour(self, start):
        returns = self.imagine(start)
        actor_loss = -returns.mean()
        self.opt_actor.zero_grad()
        actor_loss.backward()
        self.opt_actor.step()
        critic_loss = F.mse_loss(self.critic(start).squeeze(1), returns.detach())
        self.opt_critic.zero_grad()
        critic_loss.backward()
        self.opt_critic.step()
        return actor_loss.item(), critic_loss.item()


def main():
    agent = Agent()
    for it in range(15):
        s, a, s_next, r = agent.collect()
        wm_loss = agent.train_world_model(s, a, s_next, r)
        actor_loss, critic_loss = agent.train_behaviour(s)
        if it % 5 == 0:
            print(f"iter {it}: wm {wm_loss:.4f} actor {actor_loss:.3f} critic {critic_loss:.4f}")


if __name__ == "__main__":
    main()
