"""DQN agent that controls the learning rate of an SGD benchmark environment.

Shaped like TempoDAC's dqn.py driving DACBench's SGD env: every env.reset()
trains the inner network on one batch to compute the default reward, and
every env.step(action) does one more inner SGD step at the chosen lr.
"""
import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class SGDEnv:
    LRS = [1e-3, 1e-2, 1e-1]

    def __init__(self, seed, n_features=10, batch_size=32):
        g = torch.Generator().manual_seed(seed)
        self.X = torch.randn(512, n_features, generator=g)
        w = torch.randn(n_features, 1, generator=g)
        self.y = (self.X @ w > 0).long().squeeze(1)
        self.batch_size = batch_size
        self.n_features = n_features

    def _train_batch_(self, lr):
        idx = torch.randint(0, self.X.shape[0], (self.batch_size,))
        for g in self.optimizer.param_groups:
            g["lr"] = lr
        self.optimizer.zero_grad()
        loss = F.cross_entropy(self.model(self.X[idx]), self.y[idx], reduction="none")
        loss.mean().backward()
        self.optimizer.step()
        return loss.mean().item()

    def get_default_reward(self):
        return -self._train_batch_(self.LRS[0])

    def _state(self, reward):
        return torch.tensor([reward, float(self.t)])

    def reset(self):
        self.t = 0
        self.model = nn.Sequential(nn.Linear(self.n_features, 16), nn.ReLU(), nn.Linear(16, 2))
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=self.LRS[0])
        return self._state(self.get_default_reward())

    def step(self, action):
        self.t += 1
        reward = -self._train_batch_(self.LRS[action])
        return self._state(reward), reward, self.t >= 10


class DQN:
    def __init__(self, env, eval_env, gamma=0.9, epsilon=0.2):
        self._env, self._eval_env = env, eval_env
        self._q = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, len(SGDEnv.LRS)))
        self._q_optimizer = torch.optim.Adam(self._q.parameters(), lr=1e-3)
        self.gamma, self.epsilon = gamma, epsilon

    def get_action(self, s, epsilon):
        if random.random() < epsilon:
            return random.randrange(len(SGDEnv.LRS))
        return int(self._q(s).argmax())

    def train(self, episodes, eval_every):
        for ep in range(episodes):
            s, done = self._env.reset(), False
            while not done:
                a = self.get_action(s, self.epsilon)
                ns, r, done = self._env.step(a)
                with torch.no_grad():
                    target = r + (0.0 if done else self.gamma * self._q(ns).max())
                loss = F.smooth_l1_loss(self._q(s)[a], torch.as_tensor(target))
                self._q_optimizer.zero_grad()
                loss.backward()
                self._q_optimizer.step()
                s = ns
            if (ep + 1) % eval_every == 0:
                eval_s, eval_r, eval_d = self.eval(1)
                print(f"episode {ep}: eval return {eval_r:.3f}")

    def eval(self, episodes):
        total = 0.0
        for _ in range(episodes):
            s, done = self._eval_env.reset(), False
            while not done:
                with torch.no_grad():
                    a = self.get_action(s, 0.0)
                s, r, done = self._eval_env.step(a)
                total += r
        return s, total / episodes, done


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=4)
    parser.add_argument("--eval_every", type=int, default=2)
    args = parser.parse_args()
    random.seed(0)
    torch.manual_seed(0)
    agent = DQN(SGDEnv(seed=0), SGDEnv(seed=1))
    agent.train(args.episodes, args.eval_every)


if __name__ == "__main__":
    main()
