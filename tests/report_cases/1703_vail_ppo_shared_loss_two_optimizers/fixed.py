import argparse

import numpy as np
import torch
import torch.optim as optim

from model import Actor, Critic
from fixed_src.train_model import train_ppo
from utils import get_action

parser = argparse.ArgumentParser(description='PyTorch VAIL-style PPO on a toy reacher')
parser.add_argument('--gamma', type=float, default=0.99)
parser.add_argument('--lamda', type=float, default=0.98)
parser.add_argument('--hidden_size', type=int, default=64)
parser.add_argument('--learning_rate', type=float, default=3e-4)
parser.add_argument('--l2_rate', type=float, default=1e-3)
parser.add_argument('--clip_param', type=float, default=0.2)
parser.add_argument('--ppo_update_num', type=int, default=4)
parser.add_argument('--batch_size', type=int, default=32)
parser.add_argument('--total_sample_size', type=int, default=256)
parser.add_argument('--max_iter_num', type=int, default=3)
parser.add_argument('--seed', type=int, default=500)
args = parser.parse_args([])


class ToyReacher:
    """Point mass that should move towards the origin; 6-d observation, 2-d action."""

    def __init__(self, seed):
        self.rng = np.random.RandomState(seed)

    def reset(self):
        self.pos = self.rng.uniform(-1, 1, size=2)
        self.vel = np.zeros(2)
        self.t = 0
        return self._obs()

    def _obs(self):
        return np.concatenate([self.pos, self.vel, -self.pos]).astype(np.float32)

    def step(self, action):
        self.vel = 0.9 * self.vel + 0.1 * np.clip(action, -1, 1)
        self.pos = self.pos + self.vel
        self.t += 1
        reward = -np.linalg.norm(self.pos) - 0.01 * np.square(action).sum()
        done = self.t >= 50
        return self._obs(), reward, done


def main():
    env = ToyReacher(args.seed)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    num_inputs, num_actions = 6, 2

    actor = Actor(num_inputs, num_actions, args)
    critic = Critic(num_inputs, args)
    actor_optim = optim.Adam(actor.parameters(), lr=args.learning_rate)
    critic_optim = optim.Adam(critic.parameters(), lr=args.learning_rate, weight_decay=args.l2_rate)

    for iter in range(args.max_iter_num):
        actor.eval(), critic.eval()
        memory = []
        steps, scores = 0, []
        while steps < args.total_sample_size:
            state = env.reset()
            score = 0
            for _ in range(10000):
                steps += 1
                mu, std = actor(torch.Tensor(state).unsqueeze(0))
                action = get_action(mu, std)[0]
                next_state, reward, done = env.step(action)
                mask = 0 if done else 1
                memory.append([state, action, reward, mask])
                state = next_state
                score += reward
                if done:
                    break
            scores.append(score)
        print('{}:: {} episode score is {:.2f}'.format(iter, len(scores), np.mean(scores)))

        actor.train(), critic.train()
        train_ppo(actor, critic, memory, actor_optim, critic_optim, args)


if __name__ == '__main__':
    main()
