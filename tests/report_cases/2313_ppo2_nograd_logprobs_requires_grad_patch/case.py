"""PPO2 on a toy contextual task (procgen-like observations are replaced by
random feature vectors). The rollout buffer keeps old log-probs and
values; `update` runs several clipped-surrogate epochs over the batch.
"""
import argparse

import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


class ToyEnv:
    def __init__(self, obs_dim=8, n_actions=4):
        self.W = torch.randn(obs_dim, n_actions)
        self.obs_dim = obs_dim

    def reset(self, n):
        self.obs = torch.randn(n, self.obs_dim)
        return self.obs

    def step(self, actions):
        best = (self.obs @ self.W).argmax(-1)
        reward = (actions == best).float()
        return self.reset(len(actions)), reward


class PPO:
    def __init__(self, policy, cfg):
        self.policy, self.cfg = policy, cfg
        self.optimizer = torch.optim.Adam(policy.parameters(), lr=cfg["lr"])

    @torch.no_grad()
    def collect(self, env, n_steps, n_envs):
        obs = env.reset(n_envs)
        buf = {"obs": [], "actions": [], "log_probs": [], "values": [], "rewards": []}
        for _ in range(n_steps):
            dist, value = self.policy(obs)
            action = dist.sample()
            buf["obs"].append(obs)
            buf["actions"].append(action)
            buf["log_probs"].append(dist.log_prob(action))
            buf["values"].append(value)
            obs, reward = env.step(action)
            buf["rewards"].append(reward)
        return {k: torch.cat(v) for k, v in buf.items()}

    def update(self, batch):
        advantages = batch["rewards"] - batch["values"]
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
        returns = batch["rewards"]
        clip = self.cfg["clip"]
        for _ in range(self.cfg["ppo_epochs"]):
            with torch.no_grad():
                dist, values = self.policy(batch["obs"])
                new_log_probs = dist.log_prob(batch["actions"])
                entropy = dist.entropy().mean()
            ratio = torch.exp(new_log_probs - batch["log_probs"])
            surr1 = ratio * advantages
            surr2 = torch.clamp(ratio, 1 - clip, 1 + clip) * advantages
            policy_loss = -torch.min(surr1, surr2).mean()
            value_loss = (returns - values).pow(2).mean()
            loss = policy_loss + self.cfg["vf_coef"] * value_loss - self.cfg["ent_coef"] * entropy
            loss.requires_grad = True
            self.optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(self.policy.parameters(), 0.5)
            self.optimizer.step()
        return loss.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--n_envs", type=int, default=16)
    parser.add_argument("--n_steps", type=int, default=8)
    args = parser.parse_args()
    cfg = {"lr": 5e-4, "clip": 0.2, "ppo_epochs": 3, "vf_coef": 0.5, "ent_coef": 0.01}
    torch.manual_seed(0)
    env = ToyEnv()
    agent = PPO(ActorCritic(8, 4), cfg)
    for it in range(args.iterations):
        batch = agent.collect(env, args.n_steps, args.n_envs)
        loss = agent.update(batch)
        print(f"iter {it}: loss {loss:.4f} mean reward {batch['rewards'].mean():.3f}")


if __name__ == "__main__":
    main()
