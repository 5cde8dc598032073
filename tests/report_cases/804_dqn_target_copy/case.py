"""DQN with a replay deque, a target network and periodic hard target updates."""
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
OBS, N_ACT = 6, 3


class QNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.network = nn.Sequential(nn.Linear(OBS, 32), nn.ReLU(), nn.Linear(32, N_ACT))

    def forward(self, x):
        return self.network(x)


q_network, target_network = QNetwork(), QNetwork()
target_network.load_state_dict(q_network.state_dict())
optimizer = torch.optim.Adam(q_network.parameters(), lr=1e-3)
rb = deque(maxlen=500)
sched = {"epsilon": 1.0, "updates": 0}

obs = torch.randn(OBS)
for global_step in range(150):
    if random.random() < sched["epsilon"]:
        action = random.randrange(N_ACT)
    else:
        q_values = q_network(obs)
        action = torch.argmax(q_values).item()
    sched["epsilon"] = max(0.05, sched["epsilon"] * 0.98)
    next_obs = torch.randn(OBS)
    reward = float(action == int(obs[0] > 0))
    rb.append((obs.detach(), action, reward, next_obs.detach(), 0.0))
    obs = next_obs

    if global_step < 20 or global_step % 2:
        continue
    batch = random.sample(rb, 16)
    s = torch.stack([b[0] for b in batch])
    a = torch.tensor([b[1] for b in batch])
    r = torch.tensor([b[2] for b in batch])
    s2 = torch.stack([b[3] for b in batch])
    d = torch.tensor([b[4] for b in batch])
    with torch.no_grad():
        target_max, _ = target_network(s2).max(dim=1)
        td_target = r + 0.99 * target_max * (1 - d)
    old_val = q_network(s).gather(1, a.unsqueeze(1)).squeeze(1)
    loss = F.mse_loss(td_target, old_val)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    sched["updates"] += 1

    if sched["updates"] % 10 == 0:
        for target_param, q_param in zip(target_network.parameters(), q_network.parameters()):
            target_param.data.copy_(q_param.data)
        print(global_step, loss.item(), old_val.mean().item())
