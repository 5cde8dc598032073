"""MAML-style meta-learning on sine-wave regression, written with a plain nn.Module:
adapt with an ordinary optimizer, evaluate on the query set, then restore the
meta-parameters from a saved state_dict before the next task."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

INNER_LR = 0.01
META_LR = 1e-3
INNER_STEPS = 2
TASKS_PER_BATCH = 4
K_SHOT = 10


class SineTask:
    def __init__(self):
        self.amplitude = 0.1 + 4.9 * torch.rand(1).item()
        self.phase = math.pi * torch.rand(1).item()

    def sample(self, k):
        x = 10 * torch.rand(k, 1) - 5
        return x, self.amplitude * torch.sin(x + self.phase)


class Regressor(nn.Module):
    def __init__(self, hidden=40):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(1, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x)


class MetaLearner:
    def __init__(self, net):
        self.net = net
        self.inner_optim = torch.optim.SGD(net.parameters(), lr=INNER_LR)
        self.meta_optim = torch.optim.Adam(net.parameters(), lr=META_LR)

    def adapt(self, x_spt, y_spt):
        for _ in range(INNER_STEPS):
            self.inner_optim.zero_grad()
            loss = F.mse_loss(self.net(x_spt), y_spt)
            loss.backward()
            self.inner_optim.step()

    def meta_step(self, tasks):
        weights_origin = copy.deepcopy(self.net.state_dict())
        meta_loss = 0.0
        for task in tasks:
            x_spt, y_spt = task.sample(K_SHOT)
            x_qry, y_qry = task.sample(K_SHOT)
            self.adapt(x_spt, y_spt)
            meta_loss = meta_loss + F.mse_loss(self.net(x_qry), y_qry)
            self.net.load_state_dict(weights_origin)
        meta_loss = meta_loss / len(tasks)
        self.meta_optim.zero_grad()
        meta_loss.backward()
        self.meta_optim.step()
        return meta_loss.item()


if __name__ == "__main__":
    learner = MetaLearner(Regressor())
    for it in range(10):
        loss = learner.meta_step([SineTask() for _ in range(TASKS_PER_BATCH)])
        if it % 5 == 0:
            print(f"meta iteration {it}: query mse {loss:.4f}")
