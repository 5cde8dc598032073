"""Student network and an exponential-moving-average teacher."""
import copy

import torch
import torch.nn as nn


def build_net(in_dim=10, n_cls=3):
    return nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, n_cls))


class EMATeacher:
    def __init__(self, student, decay=0.99):
        self.model = copy.deepcopy(student)
        self.decay = decay
        for p in self.model.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, student):
        for t, s in zip(self.model.parameters(), student.parameters()):
            t.mul_(self.decay).add_(s, alpha=1 - self.decay)

    def __call__(self, x):
        return self.model(x)
