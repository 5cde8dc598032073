import random

import torch

from sac import SAC

torch.manual_seed(0)
random.seed(0)

args = {"gamma": 0.99, "tau": 0.005, "alpha": 0.2, "hidden_size": 32, "lr": 3e-4}
STATE_DIM, ACTION_DIM = 6, 2


class ReplayMemory:
    def __init__(self, capacity):
        self.capacity, self.buffer = capacity, []

    def push(self, *transition):
        self.buffer.append(transition)
        self.buffer = self.buffer[-self.capacity:]

    def sample(self, batch_size):
        batch = random.sample(self.buffer, batch_size)
        s, a, r, s2, m = map(torch.stack, zip(*batch))
        return s, a, r, s2, m

    def __len__(self):
        return len(self.buffer)


def sac_train(max_steps=40, batch_size=16, start_steps=20):
    agent = SAC(STATE_DIM, ACTION_DIM, args)
    memory = ReplayMemory(1000)
    state = torch.randn(STATE_DIM)
    for total_numsteps in range(max_steps):
        if start_steps > total_numsteps:
            action = torch.rand(ACTION_DIM) * 2 - 1
        else:
            with torch.no_grad():
                action, _ = agent.policy.sample(state.unsqueeze(0))
                action = action.squeeze(0)
        next_state = torch.randn(STATE_DIM)
        reward = torch.randn(1)
        memory.push(state, action, reward, next_state, torch.ones(1))
        if len(memory) > batch_size:
            agent.update_parameters(memory, batch_size)
        state = next_state


sac_train()
