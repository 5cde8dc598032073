# Actor-critic with a bootstrapped target: the next-state value is detached, the actor
# loss goes through the critic (so both optimizers see gradients).
import torch
import torch.nn as nn

torch.manual_seed(0)
actor = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1), nn.Tanh())
critic = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
a_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
c_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
gamma = 0.9
for step in range(3):
    s, s2, r = torch.randn(16, 3), torch.randn(16, 3), torch.randn(16, 1)
    a = actor(s)
    with torch.no_grad():
        a2 = actor(s2)
    target = r + gamma * critic(torch.cat([s2, a2], 1)).detach()
    c_loss = (critic(torch.cat([s, a.detach()], 1)) - target).pow(2).mean()
    c_opt.zero_grad()
    c_loss.backward()
    c_opt.step()
    a_loss = -critic(torch.cat([s, a], 1)).mean()
    a_opt.zero_grad()
    a_loss.backward()
    a_opt.step()
