"""PPO on a batch of point-mass environments (reach the origin), with a small Trainer class."""
import torch
import torch.nn as nn
from torch.distributions import Normal

torch.manual_seed(0)


class PointMassEnv:
    """num_envs independent 2-D point masses; the action is a velocity command."""

    def __init__(self, num_envs=16, dt=0.1):
        self.num_envs, self.dt = num_envs, dt
        self.pos = torch.zeros(num_envs, 2)

    def reset(self):
        self.pos = 2 * torch.rand(self.num_envs, 2) - 1
        return self.pos.clone()

    def step(self, action):
        self.pos = self.pos + self.dt * action.clamp(-1, 1)
        reward = -self.pos.norm(dim=1)
        return self.pos.clone(), reward


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=2, act_dim=2, hidden=64):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, act_dim))
        self.v = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.log_std = nn.Parameter(torch.full((act_dim,), -0.5))

    def dist(self, obs):
        return Normal(self.pi(obs), self.log_std.exp())

    def value(self, obs):
        return self.v(obs).squeeze(-1)


class PPOTrainer:
    def __init__(self, env, model, horizon=16, epochs=3, minibatches=4, clip=0.2, gamma=0.99):
        self.env, self.model = env, model
        self.horizon, self.epochs, self.minibatches = horizon, epochs, minibatches
        self.clip, self.gamma = clip, gamma
        self.optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
        self.running_loss = 0.0
        self.running_entropy = 0.0

    @torch.no_grad()
    def collect(self):
        obs = self.env.reset()
        buf = {k: [] for k in ("obs", "act", "logp", "rew", "val")}
        for _ in range(self.horizon):
            d = self.model.dist(obs)
            act = d.sample()
            buf["obs"].append(obs)
            buf["act"].append(act)
            buf["logp"].append(d.log_prob(act).sum(-1))
            buf["val"].append(self.model.value(obs))
            obs, rew = self.env.step(act)
            buf["rew"].append(rew)
        returns, ret = [], self.model.value(obs)
        for rew in reversed(buf["rew"]):
            ret = rew + self.gamma * ret
            returns.insert(0, ret)
        batch = {k: torch.cat(v) for k, v in buf.items() if k != "rew"}
        batch["ret"] = torch.cat(returns)
        batch["adv"] = batch["ret"] - batch["val"]
        batch["adv"] = (batch["adv"] - batch["adv"].mean()) / (batch["adv"].std() + 1e-8)
        return batch

    def update(self, batch):
        n = batch["obs"].shape[0]
        mb_size = n // self.minibatches
        for _ in range(self.epochs):
            perm = torch.randperm(n)
            for start in range(0, n, mb_size):
                idx = perm[start:start + mb_size]
                d = self.model.dist(batch["obs"][idx])
                logp = d.log_prob(batch["act"][idx]).sum(-1)
                ratio = torch.exp(logp - batch["logp"][idx])
                adv = batch["adv"][idx]
                pg_loss = -torch.min(ratio * adv, ratio.clamp(1 - self.clip, 1 + self.clip) * adv).mean()
                v_loss = (self.model.value(batch["obs"][idx]) - batch["ret"][idx]).pow(2).mean()
                entropy = d.entropy().sum(-1).mean()
                loss = pg_loss + 0.5 * v_loss - 0.01 * entropy
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.model.parameters(), 0.5)
                self.optimizer.step()
                # smoothed curves for the progress printout
                self.running_loss = 0.95 * self.running_loss + 0.05 * loss
                self.running_entropy = 0.95 * self.running_entropy + 0.05 * entropy

    def train(self, iterations=15):
        for it in range(iterations):
            batch = self.collect()
            self.update(batch)
            if it % 5 == 0:
                print(f"iter {it}: mean return {batch['ret'].mean():.3f} "
                      f"loss {float(self.running_loss):.4f} entropy {float(self.running_entropy):.3f}")


if __name__ == "__main__":
    trainer = PPOTrainer(PointMassEnv(), ActorCritic())
    trainer.train()
