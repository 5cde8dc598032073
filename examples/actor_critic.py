"""One-step actor-critic on a toy environment.

Hazard: the state values are computed once per episode, before the update loop, and
every update backpropagates through them: the second update walks the graph the first
one freed.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)


class ActorCritic(nn.Module):
    def __init__(self, obs=4, actions=2, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def update(model, opt, states, rewards, gamma=0.99, epochs=3):
    logits, values = model(states)
    returns = torch.zeros_like(rewards)
    running = torch.tensor(0.0)
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running
        returns[t] = running
    for epoch in range(epochs):
        dist = Categorical(logits=logits)
        actions = dist.sample()
        advantage = returns - values.detach()
        loss = -(dist.log_prob(actions) * advantage).mean() + F.mse_loss(values, returns)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch}: loss {loss.item():.3f}")


if __name__ == "__main__":
    model = ActorCritic()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    update(model, opt, torch.randn(10, 4), torch.randn(10))
