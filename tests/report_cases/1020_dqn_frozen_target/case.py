import copy
import random
from collections import deque, namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F

Transition = namedtuple("Transition", ("state", "action", "next_state", "reward", "done"))


class ChainEnv:
    """Walk left/right on a chain; reward at the right end."""

    def __init__(self, n=6):
        self.n = n
        self.pos = 0

    def reset(self):
        self.pos = 0
        return self._obs()

    def _obs(self):
        return F.one_hot(torch.tensor(self.pos), self.n).float()

    def step(self, action):
        match action:
            case 0:
                self.pos = max(0, self.pos - 1)
            case 1:
                self.pos = min(self.n - 1, self.pos + 1)
            case _:
                raise ValueError(action)
        done = self.pos == self.n - 1
        return self._obs(), (1.0 if done else -0.01), done


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
        self.layer1 = nn.Linear(n_observations, 32)
        self.layer2 = nn.Linear(32, n_actions)

    def forward(self, x):
        return self.layer2(F.relu(self.layer1(x)))


class Agent:
    def __init__(self, n_obs, n_actions, gamma=0.9, lr=1e-3, eps=0.3, replace=10):
        self.q_eval = DQN(n_obs, n_actions)
        self.q_next = copy.deepcopy(self.q_eval)
        for p in self.q_next.parameters():
            p.requires_grad_(False)
        self.optimizer = torch.optim.AdamW(self.q_eval.parameters(), lr=lr, amsgrad=True)
        self.memory = ReplayMemory(1000)
        self.gamma, self.eps, self.replace = gamma, eps, replace
        self.n_actions = n_actions
        self.learn_step_counter = 0

    def choose_action(self, state):
        if random.random() < self.eps:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            return int(self.q_eval(state).argmax())

    def replace_target_network(self):
        if self.learn_step_counter % self.replace == 0:
            self.q_next.load_state_dict(self.q_eval.state_dict())

    def learn(self, batch_size=16):
        if len(self.memory) < batch_size:
            return None
        self.replace_target_network()
        batch = Transition(*zip(*self.memory.sample(batch_size)))
        states = torch.stack(batch.state)
        actions = torch.tensor(batch.action)
        rewards = torch.tensor(batch.reward)
        next_states = torch.stack(batch.next_state)
        dones = torch.tensor(batch.done)

        q_pred = self.q_eval(states).gather(1, actions.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            q_next = self.q_next(next_states).max(dim=1).values
            q_next[dones] = 0.0
            q_target = rewards + self.gamma * q_next

        loss = F.smooth_l1_loss(q_pred, q_target)
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_value_(self.q_eval.parameters(), 100)
        self.optimizer.step()
        self.learn_step_counter += 1
        return float(loss)


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    env = ChainEnv()
    agent = Agent(env.n, 2)
    scores = []
    for episode in range(4):
        state, done, score, t = env.reset(), False, 0.0, 0
        while not done and t < 25:
            action = agent.choose_action(state)
            next_state, reward, done = env.step(action)
            agent.memory.push(state, action, next_state, reward, done)
            score += reward
            if (loss := agent.learn()) is not None and t % 10 == 0:
                print(f"episode {episode} t {t} loss {loss:.4f}")
            state, t = next_state, t + 1
        scores.append(score)
    print("scores", [round(s, 2) for s in scores])
