"""Double DQN on a toy 'reach the target coordinate' task."""
import random

import torch

from agent import DQNAgent


class LineWorld:
    def __init__(self, size=5):
        self.size = size

    def reset(self):
        self.pos = random.randrange(self.size)
        self.goal = random.randrange(self.size)
        self.t = 0
        return self.obs()

    def obs(self):
        return torch.tensor([self.pos / self.size, self.goal / self.size, 1.0])

    def step(self, action):
        self.pos = max(0, min(self.size - 1, self.pos + (1 if action == 1 else -1)))
        self.t += 1
        done = self.pos == self.goal or self.t >= 6
        return self.obs(), float(self.pos == self.goal), done


def main():
    random.seed(0)
    torch.manual_seed(0)
    env = LineWorld()
    agent = DQNAgent(n_obs=3, n_actions=2)
    losses = []
    for episode in range(3):
        state, done = env.reset(), False
        while not done:
            action = agent.select_action(state, eps=0.3)
            next_state, reward, done = env.step(action)
            agent.memory.push(state, action, reward, next_state, done)
            state = next_state
            loss = agent.optimize(batch_size=4)
            if loss is not None:
                losses.append(loss)
        print(f"episode {episode}: updates={agent.updates} last_loss={losses[-1] if losses else float('nan'):.4f}")


if __name__ == "__main__":
    main()
