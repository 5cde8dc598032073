"""REINFORCE on a tiny chain-walk environment."""
import argparse
from collections import deque

import torch
import torch.optim as optim

from agent import Policy

parser = argparse.ArgumentParser(description="PyTorch REINFORCE example")
parser.add_argument("--gamma", type=float, default=0.99, metavar="G")
parser.add_argument("--seed", type=int, default=543, metavar="N")
parser.add_argument("--episodes", type=int, default=3)
parser.add_argument("--log-interval", type=int, default=1, metavar="N")
args = parser.parse_args()


class ChainWalk:
    """Agent walks on positions 0..n-1, +1 reward for reaching the right end."""

    def __init__(self, n=6, horizon=8):
        self.n, self.horizon = n, horizon

    def reset(self):
        self.pos, self.t = self.n // 2, 0
        return self._obs()

    def _obs(self):
        return torch.nn.functional.one_hot(torch.tensor(self.pos), self.n)

    def step(self, action):
        self.pos = max(0, min(self.n - 1, self.pos + (1 if action == 1 else -1)))
        self.t += 1
        reward = 1.0 if self.pos == self.n - 1 else -0.01
        done = self.t >= self.horizon
        return self._obs(), reward, done


torch.manual_seed(args.seed)
env = ChainWalk()
policy = Policy(env.n, 2)
optimizer = optim.Adam(policy.parameters(), lr=1e-2)
eps = torch.finfo(torch.float32).eps


def finish_episode():
    R = 0
    policy_loss = []
    returns = deque()
    for r in policy.rewards[::-1]:
        R = r + args.gamma * R
        returns.appendleft(R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]


def main():
    running_reward = 0.0
    for i_episode in range(1, args.episodes + 1):
        state, ep_reward = env.reset(), 0
        done = False
        while not done:
            action = policy.select_action(state)
            state, reward, done = env.step(action)
            policy.rewards.append(reward)
            ep_reward += reward
        running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
        finish_episode()
        if i_episode % args.log_interval == 0:
            print(f"Episode {i_episode}\tLast reward: {ep_reward:.2f}\tAverage reward: {running_reward:.2f}")


if __name__ == "__main__":
    main()
