"""PAAC (parallel advantage actor-critic): n environments stepped in lock-step,
t_max-step rollouts, one synchronous update per rollout."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class ParallelChainEnv:
    """n copies of a noisy chain walk: reward 1 for reaching the right end."""

    def __init__(self, n_envs, n_states=8):
        self.n_envs, self.n_states = n_envs, n_states
        self.pos = torch.zeros(n_envs, dtype=torch.long)

    def observe(self):
        return F.one_hot(self.pos, self.n_states).float()

    def step(self, actions):
        move = torch.where(actions == 1, 1, -1)
        move = torch.where(torch.rand(self.n_envs) < 0.1, -move, move)
        self.pos = (self.pos + move).clamp(0, self.n_states - 1)
        done = self.pos == self.n_states - 1
        reward = done.float()
        self.pos = torch.where(done, torch.zeros_like(self.pos), self.pos)
        return self.observe(), reward, done.float()


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU())
        self.pi, self.v = nn.Linear(hidden, n_actions), nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


class PAACLearner:
    def __init__(self, args):
        self.args = args
        self.env = ParallelChainEnv(args.n_envs)
        self.network = ActorCritic(self.env.n_states, 2)
        self.optimizer = torch.optim.RMSprop(self.network.parameters(), lr=args.lr, eps=0.1)

    def train(self):
        args = self.args
        obs = self.env.observe()
        loss_sum = 0
        for update in range(1, args.updates + 1):
            log_probs, values, entropies, rewards, masks = [], [], [], [], []
            for t in range(args.t_max):
                logits, value = self.network(obs)
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
                obs, reward, done = self.env.step(action)
                log_probs.append(dist.log_prob(action))
                values.append(value)
                entropies.append(dist.entropy())
                rewards.append(reward)
                masks.append(1 - done)
            with torch.no_grad():
                _, R = self.network(obs)
            returns = []
            for r, m in zip(reversed(rewards), reversed(masks)):
                R = r + args.gamma * m * R
                returns.insert(0, R)
            returns, values = torch.stack(returns), torch.stack(values)
            advantages = returns - values
            policy_loss = -(torch.stack(log_probs) * advantages.detach()).mean()
            value_loss = advantages.pow(2).mean()
            entropy = torch.stack(entropies).mean()
            loss = policy_loss + args.value_coef * value_loss - args.entropy_coef * entropy

            self.optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(self.network.parameters(), args.clip_norm)
            self.optimizer.step()

            loss_sum += loss.item()
            if update % args.log_interval == 0:
                print(f"update {update} mean loss {loss_sum / args.log_interval:.4f}")
                loss_sum = 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n_envs", type=int, default=16)
    parser.add_argument("--t_max", type=int, default=5)
    parser.add_argument("--updates", type=int, default=60)
    parser.add_argument("--log_interval", type=int, default=20)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--lr", type=float, default=7e-4)
    parser.add_argument("--value_coef", type=float, default=0.5)
    parser.add_argument("--entropy_coef", type=float, default=0.01)
    parser.add_argument("--clip_norm", type=float, default=3.0)
    args = parser.parse_args()
    torch.manual_seed(0)
    PAACLearner(args).train()


if __name__ == "__main__":
    main()
