"""Soft actor-critic with automatic entropy temperature tuning on a toy
continuous-control task (random linear dynamics, quadratic cost)."""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(inp, out, hidden=64):
    return nn.Sequential(nn.Linear(inp, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                         nn.Linear(hidden, out))


class GaussianPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = mlp(obs_dim, 2 * act_dim)

    def sample(self, obs):
        mean, log_std = self.net(obs).chunk(2, dim=-1)
        std = log_std.clamp(-20, 2).exp()
        dist = torch.distributions.Normal(mean, std)
        u = dist.rsample()
        action = torch.tanh(u)
        log_prob = dist.log_prob(u) - torch.log(1 - action.pow(2) + 1e-6)
        return action, log_prob.sum(-1, keepdim=True)


class SACAgent:
    def __init__(self, obs_dim, act_dim, cfg):
        self.cfg = cfg
        self.actor = GaussianPolicy(obs_dim, act_dim)
        self.q1, self.q2 = mlp(obs_dim + act_dim, 1), mlp(obs_dim + act_dim, 1)
        self.q1_targ, self.q2_targ = copy.deepcopy(self.q1), copy.deepcopy(self.q2)
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=cfg["lr"])
        self.critic_optimizer = torch.optim.Adam(
            list(self.q1.parameters()) + list(self.q2.parameters()), lr=cfg["lr"])
        self.expected_entropy = -float(act_dim)
        self.log_alpha = torch.tensor(0.0, requires_grad=True)
        self.alpha = self.log_alpha.exp().detach()
        self.alpha_optimizer = torch.optim.Adam([self.log_alpha], lr=cfg["alpha_lr"])

    def update(self, obs, act, rew, next_obs, done):
        with torch.no_grad():
            next_act, next_logp = self.actor.sample(next_obs)
            sa2 = torch.cat([next_obs, next_act], -1)
            q_targ = torch.min(self.q1_targ(sa2), self.q2_targ(sa2)) - self.alpha * next_logp
            backup = rew + self.cfg["gamma"] * (1 - done) * q_targ
        sa = torch.cat([obs, act], -1)
        critic_loss = F.mse_loss(self.q1(sa), backup) + F.mse_loss(self.q2(sa), backup)
        self.critic_optimizer.zero_grad()
        critic_loss.backward()
        self.critic_optimizer.step()

        new_act, logp = self.actor.sample(obs)
        sa_pi = torch.cat([obs, new_act], -1)
        q_pi = torch.min(self.q1(sa_pi), self.q2(sa_pi))
        actor_loss = (self.alpha * logp - q_pi).mean()
        self.actor_optimizer.zero_grad()
        actor_loss.backward()
        self.actor_optimizer.step()

        alpha_loss = -(self.log_alpha.exp() * (logp + self.expected_entropy).detach()).mean()
        self.alpha_optimizer.zero_grad()
        alpha_loss.backward()
        self.alpha_optimizer.step()
        self.alpha = self.log_alpha.exp().detach()

        with torch.no_grad():
            for net, targ in ((self.q1, self.q1_targ), (self.q2, self.q2_targ)):
                for p, p_t in zip(net.parameters(), targ.parameters()):
                    p_t.mul_(1 - self.cfg["tau"]).add_(self.cfg["tau"] * p)
        return critic_loss.item(), actor_loss.item(), self.alpha.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--obs_dim", type=int, default=6)
    parser.add_argument("--act_dim", type=int, default=2)
    parser.add_argument("--updates", type=int, default=30)
    parser.add_argument("--batch", type=int, default=64)
    args = parser.parse_args()
    cfg = {"lr": 3e-4, "alpha_lr": 3e-3, "gamma": 0.99, "tau": 0.005}

    torch.manual_seed(0)
    A = torch.randn(args.obs_dim, args.obs_dim) * 0.3
    B = torch.randn(args.act_dim, args.obs_dim) * 0.3
    agent = SACAgent(args.obs_dim, args.act_dim, cfg)
    for step in range(args.updates):
        obs = torch.randn(args.batch, args.obs_dim)
        act = torch.rand(args.batch, args.act_dim) * 2 - 1
        next_obs = obs @ A + act @ B
        rew = -(next_obs.pow(2).sum(-1, keepdim=True))
        done = torch.zeros(args.batch, 1)
        c, a, alpha = agent.update(obs, act, rew, next_obs, done)
        if step % 10 == 0:
            print(f"step {step} critic {c:.3f} actor {a:.3f} alpha {alpha:.3f}")


if __name__ == "__main__":
    main()
