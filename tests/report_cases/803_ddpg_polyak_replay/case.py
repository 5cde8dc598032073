"""DDPG on a toy continuous-control task with a replay buffer and Polyak-averaged target networks."""
import copy
import random

import torch
import torch.nn.functional as F

from model import Actor, Critic
from utils import ReplayBuffer, hard_update, polyak_update

torch.manual_seed(0)
random.seed(0)
OBS, ACT, GAMMA, TAU = 4, 2, 0.99, 0.005

actor, critic = Actor(OBS, ACT), Critic(OBS, ACT)
actor_targ, critic_targ = copy.deepcopy(actor), copy.deepcopy(critic)
for p in list(actor_targ.parameters()) + list(critic_targ.parameters()):
    p.requires_grad = False
hard_update(actor_targ, actor)
pi_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
q_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
buffer = ReplayBuffer(1000)

obs = torch.randn(OBS)
for step in range(70):
    with torch.no_grad():
        act = actor(obs)
        act += 0.1 * torch.randn(ACT)
        act.clamp_(-1.0, 1.0)
    next_obs = obs + 0.1 * torch.randn(OBS)
    rew = -(next_obs ** 2).sum() - 0.1 * (act ** 2).sum()
    buffer.add(obs, act, rew, next_obs, 0.0)
    obs = next_obs

    if len(buffer) < 32:
        continue
    o, a, r, o2, d = buffer.sample(32)
    with torch.no_grad():
        backup = r + GAMMA * (1 - d) * critic_targ(o2, actor_targ(o2))
    loss_q = F.mse_loss(critic(o, a), backup)
    q_opt.zero_grad()
    loss_q.backward()
    q_opt.step()

    loss_pi = -critic(o, actor(o)).mean()
    pi_opt.zero_grad()
    loss_pi.backward()
    pi_opt.step()

    polyak_update(critic.parameters(), critic_targ.parameters(), TAU)
    polyak_update(actor.parameters(), actor_targ.parameters(), TAU)
    if step % 40 == 0:
        print(step, round(loss_q.item(), 4), round(loss_pi.item(), 4))
