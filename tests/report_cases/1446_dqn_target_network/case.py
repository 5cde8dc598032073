"""DQN update step with a replay memory and a soft-updated target network."""
import random
from collections import deque, namedtuple

import torch
import torch.nn as nn

Transition = namedtuple("Transition", ("state", "action", "next_state", "reward", "done"))


class ReplayMemory:
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)

    def __len__(self):
        return len(self.memory)


class DQN(nn.Module):
    def __init__(self, n_observations, n_actions):
        super().__init__()
        self.layer1 = nn.Linear(n_observations, 64)
        self.layer2 = nn.Linear(64, 64)
        self.layer3 = nn.Linear(64, n_actions)

    def forward(self, x):
        x = torch.relu(self.layer1(x))
        x = torch.relu(self.layer2(x))
        return self.layer3(x)


BATCH_SIZE, GAMMA, TAU, LR = 16, 0.99, 0.005, 1e-4
n_obs, n_actions = 4, 2

policy_net = DQN(n_obs, n_actions)
target_net = DQN(n_obs, n_actions)
target_net.load_state_dict(policy_net.state_dict())
optimizer = torch.optim.AdamW(policy_net.parameters(), lr=LR, amsgrad=True)
memory = ReplayMemory(1000)


def select_action(state, eps=0.2):
    if random.random() > eps:
        with torch.no_grad():
            return policy_net(state).argmax(1).view(1, 1)
    return torch.tensor([[random.randrange(n_actions)]], dtype=torch.long)


def optimize_model():
    if len(memory) < BATCH_SIZE:
        return None
    batch = Transition(*zip(*memory.sample(BATCH_SIZE)))
    state_batch = torch.cat(batch.state)
    action_batch = torch.cat(batch.action)
    reward_batch = torch.cat(batch.reward)
    next_state_batch = torch.cat(batch.next_state)
    done_batch = torch.cat(batch.done)

    state_action_values = policy_net(state_batch).gather(1, action_batch)

    next_state_values = target_net(next_state_batch).max(1).values.detach()
    next_state_values[done_batch] = 0.0
    expected_state_action_values = (next_state_values * GAMMA) + reward_batch

    criterion = nn.SmoothL1Loss()
    loss = criterion(state_action_values, expected_state_action_values.unsqueeze(1))

    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    state = torch.randn(1, n_obs)
    for t in range(BATCH_SIZE + 3):
        action = select_action(state)
        next_state = state + 0.1 * torch.randn(1, n_obs)
        reward = torch.tensor([1.0 - next_state.abs().mean().item()])
        done = torch.tensor([t % 7 == 6])
        memory.push(state, action, next_state, reward, done)
        state = torch.randn(1, n_obs) if done.item() else next_state

        loss = optimize_model()

        target_net_state_dict = target_net.state_dict()
        policy_net_state_dict = policy_net.state_dict()
        for key in policy_net_state_dict:
            target_net_state_dict[key] = policy_net_state_dict[key] * TAU + target_net_state_dict[key] * (1 - TAU)
        target_net.load_state_dict(target_net_state_dict)
        if loss is not None:
            print(f"t={t}: loss {loss:.4f}")
