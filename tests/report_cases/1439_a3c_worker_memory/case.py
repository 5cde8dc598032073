"""Single-worker advantage actor-critic with separate actor and critic networks."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

GAMMA = 0.9
T_MAX = 5
N_UPDATES = 3


class Actor(nn.Module):
    def __init__(self, s_dim, a_dim):
        super().__init__()
        self.fc1 = nn.Linear(s_dim, 32)
        self.fc2 = nn.Linear(32, a_dim)

    def forward(self, s):
        return F.softmax(self.fc2(torch.tanh(self.fc1(s))), dim=-1)


class Critic(nn.Module):
    def __init__(self, s_dim):
        super().__init__()
        self.fc1 = nn.Linear(s_dim, 32)
        self.fc2 = nn.Linear(32, 1)

    def forward(self, s):
        return self.fc2(torch.tanh(self.fc1(s)))


class Worker:
    def __init__(self, s_dim=4, a_dim=2):
        self.actor = Actor(s_dim, a_dim)
        self.critic = Critic(s_dim)
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.memory = []
        self.gen = torch.Generator().manual_seed(0)

    def env_step(self, state, action):
        nxt = state + (0.1 if action else -0.1) + 0.05 * torch.randn(state.shape, generator=self.gen)
        return nxt, float(-nxt.abs().mean())

    def rollout(self, state):
        for _ in range(T_MAX):
            dist = Categorical(self.actor(state))
            action = dist.sample()
            value = self.critic(state)
            next_state, reward = self.env_step(state, action.item())
            self.memory.append((state, dist.log_prob(action), reward, value))
            state = next_state
        return state

    def compute_returns(self, last_state):
        with torch.no_grad():
            R = self.critic(last_state).item()
        returns = []
        for _, _, r, _ in reversed(self.memory):
            R = r + GAMMA * R
            returns.insert(0, R)
        return torch.tensor(returns, dtype=torch.float).unsqueeze(1)

    def learn(self, last_state):
        returns = self.compute_returns(last_state)
        log_probs = torch.tensor([t[1] for t in self.memory], dtype=torch.float).unsqueeze(1)
        values = torch.stack([t[3] for t in self.memory])

        advantage = returns - values
        critic_loss = advantage.pow(2).mean()
        actor_loss = -(log_probs * advantage.detach()).mean()

        self.actor_optimizer.zero_grad()
        self.critic_optimizer.zero_grad()
        (actor_loss + critic_loss).backward()
        self.actor_optimizer.step()
        self.critic_optimizer.step()
        self.memory.clear()
        return actor_loss.item(), critic_loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    worker = Worker()
    state = torch.zeros(4)
    for update in range(N_UPDATES):
        state = worker.rollout(state)
        a_loss, c_loss = worker.learn(state)
        print(f"update {update}: actor {a_loss:.4f} critic {c_loss:.4f}")
