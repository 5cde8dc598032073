import random
from collections import deque, namedtuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

BUFFER_SIZE = 2000
BATCH_SIZE = 32
GAMMA = 0.95
TAU = 1e-2
LR = 5e-4
UPDATE_EVERY = 4

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)

Experience = namedtuple("Experience", ["state", "action", "reward", "next_state", "done"])


class Corridor:
    """1-D corridor: start in the middle, +1 at the right end, -1 at the left end."""

    def __init__(self, length=9):
        self.length = length

    def reset(self):
        self.pos = self.length // 2
        return self._obs()

    def _obs(self):
        obs = np.zeros(self.length, dtype=np.float32)
        obs[self.pos] = 1.0
        return obs

    def step(self, action):
        self.pos += 1 if action == 1 else -1
        if self.pos == self.length - 1:
            return self._obs(), 1.0, True
        if self.pos == 0:
            return self._obs(), -1.0, True
        return self._obs(), -0.01, False


class QNetwork(nn.Module):
    def __init__(self, state_size, action_size, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(state_size, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.fc3 = nn.Linear(hidden, action_size)

    def forward(self, state):
        x = F.relu(self.fc1(state))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


class ReplayBuffer:
    def __init__(self, buffer_size, batch_size):
        self.memory = deque(maxlen=buffer_size)
        self.batch_size = batch_size

    def add(self, *transition):
        self.memory.append(Experience(*transition))

    def sample(self):
        batch = random.sample(self.memory, k=self.batch_size)
        states = torch.from_numpy(np.vstack([e.state for e in batch])).float()
        actions = torch.from_numpy(np.vstack([e.action for e in batch])).long()
        rewards = torch.from_numpy(np.vstack([e.reward for e in batch])).float()
        next_states = torch.from_numpy(np.vstack([e.next_state for e in batch])).float()
        dones = torch.from_numpy(np.vstack([e.done for e in batch]).astype(np.uint8)).float()
        return states, actions, rewards, next_states, dones

    def __len__(self):
        return len(self.memory)


class Agent:
    def __init__(self, state_size, action_size):
        self.action_size = action_size
        self.qnetwork_local = QNetwork(state_size, action_size)
        self.qnetwork_target = QNetwork(state_size, action_size)
        self.qnetwork_target.load_state_dict(self.qnetwork_local.state_dict())
        self.optimizer = optim.Adam(self.qnetwork_local.parameters(), lr=LR)
        self.memory = ReplayBuffer(BUFFER_SIZE, BATCH_SIZE)
        self.t_step = 0

    def step(self, state, action, reward, next_state, done):
        self.memory.add(state, action, reward, next_state, done)
        self.t_step = (self.t_step + 1) % UPDATE_EVERY
        if self.t_step == 0 and len(self.memory) > BATCH_SIZE:
            self.learn(self.memory.sample())

    def act(self, state, eps=0.0):
        if random.random() < eps:
            return random.randrange(self.action_size)
        state = torch.from_numpy(state).float().unsqueeze(0)
        with torch.no_grad():
            action_values = self.qnetwork_local(state)
        return int(action_values.argmax(1).item())

    def learn(self, experiences):
        states, actions, rewards, next_states, dones = experiences
        with torch.no_grad():
            q_targets_next = self.qnetwork_target(next_states).max(1, keepdim=True)[0]
            q_targets = rewards + GAMMA * q_targets_next * (1 - dones)
            q_expected = self.qnetwork_local(states).gather(1, actions)
        loss = F.mse_loss(q_expected, q_targets)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.soft_update(self.qnetwork_local, self.qnetwork_target, TAU)

    @staticmethod
    def soft_update(local_model, target_model, tau):
        with torch.no_grad():
            for target_param, local_param in zip(target_model.parameters(), local_model.parameters()):
                target_param.mul_(1.0 - tau).add_(tau * local_param)


def run(n_episodes=60, max_t=40, eps_start=1.0, eps_end=0.05, eps_decay=0.95):
    env = Corridor()
    agent = Agent(state_size=env.length, action_size=2)
    eps = eps_start
    scores = deque(maxlen=20)
    for episode in range(1, n_episodes + 1):
        state = env.reset()
        score = 0.0
        for _ in range(max_t):
            action = agent.act(state, eps)
            next_state, reward, done = env.step(action)
            agent.step(state, action, reward, next_state, done)
            state = next_state
            score += reward
            if done:
                break
        scores.append(score)
        eps = max(eps_end, eps_decay * eps)
        if episode % 20 == 0:
            print(f"episode {episode}: average score {np.mean(scores):.3f}")


if __name__ == "__main__":
    run()
