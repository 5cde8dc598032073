import copy
import random
from collections import deque, namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F

Transition = namedtuple("Transition", ("state", "action", "reward", "next_state", "done"))


class ReplayMemory:
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)

    def __len__(self):
        return len(self.memory)


class QNetwork(nn.Module):
    def __init__(self, n_obs, n_actions, hidden=32):
        super().__init__()
        self.layer1 = nn.Linear(n_obs, hidden)
        self.layer2 = nn.Linear(hidden, hidden)
        self.layer3 = nn.Linear(hidden, n_actions)

    def forward(self, x):
        x = F.relu(self.layer1(x))
        x = F.relu(self.layer2(x))
        return self.layer3(x)


class DQNAgent:
    def __init__(self, n_obs, n_actions, gamma=0.99, lr=1e-3, double_dqn=True, target_update=2):
        self.n_actions = n_actions
        self.gamma = gamma
        self.double_dqn = double_dqn
        self.target_update = target_update
        self.policy_net = QNetwork(n_obs, n_actions)
        self.target_net = copy.deepcopy(self.policy_net)
        self.target_net.requires_grad_(False)
        self.optimizer = torch.optim.AdamW(self.policy_net.parameters(), lr=lr, amsgrad=True)
        self.memory = ReplayMemory(1000)
        self.updates = 0

    def select_action(self, state, eps):
        if random.random() < eps:
            return random.randrange(self.n_actions)
        with torch.inference_mode():
            return int(self.policy_net(state.unsqueeze(0)).argmax(1).item())

    def optimize(self, batch_size):
        if len(self.memory) < batch_size:
            return None
        batch = Transition(*zip(*self.memory.sample(batch_size)))
        states = torch.stack(batch.state)
        actions = torch.tensor(batch.action).unsqueeze(1)
        rewards = torch.tensor(batch.reward)
        next_states = torch.stack(batch.next_state)
        dones = torch.tensor(batch.done, dtype=torch.float32)

        state_action_values = self.policy_net(states).gather(1, actions).squeeze(1)
        with torch.no_grad():
            if self.double_dqn:
                next_actions = self.policy_net(next_states).argmax(1, keepdim=True)
                next_values = self.target_net(next_states).gather(1, next_actions).squeeze(1)
            else:
                next_values = self.target_net(next_states).max(1).values
        expected = rewards + self.gamma * (1 - dones) * next_values

        loss = F.smooth_l1_loss(state_action_values, expected)
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_value_(self.policy_net.parameters(), 100)
        self.optimizer.step()

        self.updates += 1
        if self.updates % self.target_update == 0:
            self.target_net.load_state_dict(self.policy_net.state_dict())
        return loss.item()
