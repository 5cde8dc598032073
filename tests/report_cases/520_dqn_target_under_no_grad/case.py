import collections
import copy
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
STATE_DIM, N_ACTIONS = 4, 2


class ReplayBuffer:
    def __init__(self, capacity):
        self.buffer = collections.deque(maxlen=capacity)

    def add(self, s, a, r, s2, done):
        self.buffer.append((s, a, r, s2, done))

    def sample(self, n):
        s, a, r, s2, d = zip(*random.sample(self.buffer, n))
        return (torch.stack(s), torch.tensor(a), torch.tensor(r),
                torch.stack(s2), torch.tensor(d, dtype=torch.float32))


class DQN:
    def __init__(self, gamma=0.98, target_update=4):
        self.q_net = nn.Sequential(nn.Linear(STATE_DIM, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS))
        self.target_q_net = copy.deepcopy(self.q_net)
        self.optimizer = torch.optim.Adam(self.q_net.parameters(), lr=1e-3)
        self.gamma, self.target_update, self.count = gamma, target_update, 0

    def take_action(self, state, epsilon=0.1):
        if random.random() < epsilon:
            return random.randrange(N_ACTIONS)
        with torch.no_grad():
            return int(self.q_net(state).argmax())

    def update(self, s, a, r, s2, d):
        q_values = self.q_net(s).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            max_next_q = self.target_q_net(s2).max(1)[0]
            q_targets = r + self.gamma * max_next_q * (1 - d)
        loss = F.mse_loss(q_values, q_targets)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.count += 1
        if self.count % self.target_update == 0:
            self.target_q_net.load_state_dict(self.q_net.state_dict())
        return loss.item()


agent, buffer = DQN(), ReplayBuffer(100)
state = torch.randn(STATE_DIM)
returns = []
for step in range(40):
    action = agent.take_action(state)
    next_state, reward, done = torch.randn(STATE_DIM), float(action == 1), step % 10 == 9
    buffer.add(state, action, reward, next_state, done)
    state = torch.randn(STATE_DIM) if done else next_state
    if len(buffer.buffer) >= 16:
        returns.append(agent.update(*buffer.sample(8)))
print("mean loss", sum(returns) / len(returns))
