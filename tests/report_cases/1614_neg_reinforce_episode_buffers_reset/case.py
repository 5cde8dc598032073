import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

gamma = 0.98
learning_rate = 5e-3
torch.manual_seed(0)
np.random.seed(0)


class GridWalk:
    """5x5 grid, start in a corner, reward 1 for reaching the opposite corner."""

    def __init__(self, size=5, max_steps=30):
        self.size, self.max_steps = size, max_steps

    def reset(self):
        self.pos, self.t = np.array([0, 0]), 0
        return self._obs()

    def _obs(self):
        return self.pos.astype(np.float32) / (self.size - 1)

    def step(self, a):
        moves = [(0, 1), (1, 0), (0, -1), (-1, 0)]
        self.pos = np.clip(self.pos + moves[a], 0, self.size - 1)
        self.t += 1
        done = bool((self.pos == self.size - 1).all()) or self.t >= self.max_steps
        reward = 1.0 if (self.pos == self.size - 1).all() else -0.01
        return self._obs(), reward, done


class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.data = []
        self.fc1 = nn.Linear(2, 64)
        self.fc2 = nn.Linear(64, 4)
        self.optimizer = optim.Adam(self.parameters(), lr=learning_rate)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        return F.softmax(self.fc2(x), dim=0)

    def put_data(self, item):
        self.data.append(item)

    def train_net(self):
        R = 0
        self.optimizer.zero_grad()
        for r, prob in self.data[::-1]:
            R = r + gamma * R
            loss = -torch.log(prob) * R
            loss.backward()
        self.optimizer.step()
        self.data = []


def main():
    env = GridWalk()
    pi = Policy()
    score = 0.0
    print_interval = 20

    for n_epi in range(100):
        s = env.reset()
        done = False
        while not done:
            prob = pi(torch.from_numpy(s))
            m = Categorical(prob)
            a = m.sample()
            s_prime, r, done = env.step(a.item())
            pi.put_data((r, prob[a]))
            s = s_prime
            score += r
        pi.train_net()

        if n_epi % print_interval == 0 and n_epi != 0:
            print(f"# of episode :{n_epi}, avg score : {score / print_interval:.3f}")
            score = 0.0


if __name__ == "__main__":
    main()
