"""Second-order MAML on toy 3-way classification (functional learner)."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class MetaConfig:
    n_way: int = 3
    in_dim: int = 5
    hidden: int = 16
    task_num: int = 2
    update_step: int = 1
    update_lr: float = 0.4
    meta_lr: float = 1e-3
    epochs: int = 3


class Learner(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.vars = nn.ParameterList([
            nn.Parameter(torch.randn(cfg.hidden, cfg.in_dim) * 0.1), nn.Parameter(torch.zeros(cfg.hidden)),
            nn.Parameter(torch.randn(cfg.n_way, cfg.hidden) * 0.1), nn.Parameter(torch.zeros(cfg.n_way)),
        ])

    def forward(self, x, vars=None):
        w1, b1, w2, b2 = self.vars if vars is None else vars
        return F.linear(F.relu(F.linear(x, w1, b1)), w2, b2)


class Meta(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.net = Learner(cfg)
        self.meta_optim = torch.optim.Adam(self.net.parameters(), lr=cfg.meta_lr)

    def forward(self, x_spt, y_spt, x_qry, y_qry):
        cfg = self.cfg
        losses_q = [0 for _ in range(cfg.update_step + 1)]
        for i in range(cfg.task_num):
            loss = F.cross_entropy(self.net(x_spt[i]), y_spt[i])
            grad = torch.autograd.grad(loss, self.net.parameters(), create_graph=True)
            fast_weights = [p - cfg.update_lr * g for g, p in zip(grad, self.net.parameters())]
            with torch.no_grad():
                losses_q[0] += F.cross_entropy(self.net(x_qry[i]), y_qry[i])
            losses_q[1] += F.cross_entropy(self.net(x_qry[i], fast_weights), y_qry[i])
            for k in range(1, cfg.update_step):
                loss = F.cross_entropy(self.net(x_spt[i], fast_weights), y_spt[i])
                grad = torch.autograd.grad(loss, fast_weights, create_graph=True)
                fast_weights = [p - cfg.update_lr * g for g, p in zip(grad, fast_weights)]
                losses_q[k + 1] += F.cross_entropy(self.net(x_qry[i], fast_weights), y_qry[i])
        loss_q = losses_q[-1] / cfg.task_num
        self.meta_optim.zero_grad()
        loss_q.backward()
        self.meta_optim.step()
        return [float(l) / cfg.task_num for l in losses_q]


def sample_tasks(cfg, shots=4):
    x = torch.randn(2, cfg.task_num, cfg.n_way * shots, cfg.in_dim)
    y = torch.arange(cfg.n_way).repeat(shots).expand(cfg.task_num, -1)
    return x[0], y, x[1], y


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = MetaConfig()
    maml = Meta(cfg)
    for epoch in range(cfg.epochs):
        print(epoch, maml(*sample_tasks(cfg)))
