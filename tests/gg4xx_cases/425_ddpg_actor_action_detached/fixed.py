# fixed twin: the actor loss backpropagates through the critic into the actor.
# (only the critic update is free of the actor)
import torch
import torch.nn as nn

torch.manual_seed(0)


class Actor(nn.Module):
    def __init__(self, s_dim=3, a_dim=1):
        super().__init__()
        self.l1 = nn.Linear(s_dim, 16)
        self.l2 = nn.Linear(16, a_dim)

    def forward(self, s):
        return torch.tanh(self.l2(torch.relu(self.l1(s))))


class Critic(nn.Module):
    def __init__(self, s_dim=3, a_dim=1):
        super().__init__()
        self.l1 = nn.Linear(s_dim + a_dim, 16)
        self.l2 = nn.Linear(16, 1)

    def forward(self, s, a):
        return self.l2(torch.relu(self.l1(torch.cat([s, a], 1))))


actor, critic = Actor(), Critic()
actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
for update in range(3):
    s, a, r = torch.randn(32, 3), torch.rand(32, 1) * 2 - 1, torch.randn(32, 1)
    critic_loss = (critic(s, a) - r).pow(2).mean()
    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()
    actions = actor(s)
    actor_loss = -critic(s, actions).mean()
    actor_opt.zero_grad()
    actor_loss.backward()
    actor_opt.step()
