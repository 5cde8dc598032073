from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@dataclass
class Config:
    in_dim: int = 20
    hidden: int = 32
    n_classes: int = 4
    T: int = 4
    batch: int = 16
    tau: float = 2.0
    lr: float = 1e-3


class StatefulSNN(nn.Module):
    """Two LIF layers whose voltages persist between batches on purpose."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.layers = nn.ModuleDict({
            "fc1": nn.Linear(cfg.in_dim, cfg.hidden),
            "fc2": nn.Linear(cfg.hidden, cfg.n_classes),
        })
        self.v = {}

    def lif(self, name, x):
        v = self.v.get(name, torch.zeros_like(x))
        v = v + (x - v) / self.cfg.tau
        spike = torch.sigmoid(4.0 * (v - 1.0))
        self.v[name] = v * (1.0 - spike)
        return spike

    def forward(self, x_seq):
        out = 0.0
        for t in range(self.cfg.T):
            h = self.lif("fc1", self.layers["fc1"](x_seq[t]))
            out = out + self.lif("fc2", self.layers["fc2"](h))
        return out / self.cfg.T


def main():
    cfg = Config()
    net = StatefulSNN(cfg)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    for step in range(3):
        x_seq = torch.rand(cfg.T, cfg.batch, cfg.in_dim)
        y = torch.randint(0, cfg.n_classes, (cfg.batch,))
        loss = F.cross_entropy(net(x_seq) * 5.0, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        # keep the voltages for the next batch, but only their values
        net.v = {name: v.detach() for name, v in net.v.items()}
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
