"""Actor-critic where the value head reads a detached copy of the shared features.

The actor optimizer owns the encoder and the policy head; the critic
optimizer owns only the value head.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Agent(nn.Module):
    def __init__(self, obs_dim=8, n_actions=4, hidden=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.policy = nn.Linear(hidden, n_actions)
        self.value = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, obs):
        z = self.encoder(obs)
        return self.policy(z), self.value(z.detach()).squeeze(-1)


def discounted(rewards, gamma=0.99):
    out, running = [], 0.0
    for r in reversed(rewards.tolist()):
        running = r + gamma * running
        out.append(running)
    return torch.tensor(out[::-1])


def main():
    torch.manual_seed(0)
    agent = Agent()
    actor_opt = torch.optim.Adam(list(agent.encoder.parameters()) + list(agent.policy.parameters()), lr=1e-3)
    critic_opt = torch.optim.Adam(agent.value.parameters(), lr=1e-3)
    for update in range(3):
        obs, rewards = torch.randn(7, 8), torch.randn(7)
        returns = discounted(rewards)
        logits, values = agent(obs)
        dist = torch.distributions.Categorical(logits=logits)
        actions = dist.sample()
        actor_loss = -(dist.log_prob(actions) * (returns - values.detach())).mean()
        critic_loss = F.smooth_l1_loss(values, returns)

        actor_opt.zero_grad()
        actor_loss.backward()
        actor_opt.step()

        critic_opt.zero_grad()
        critic_loss.backward()
        critic_opt.step()
        print(update, round(actor_loss.item(), 4), round(critic_loss.item(), 4))


if __name__ == "__main__":
    main()
