from dataclasses import dataclass, field

import torch
import torch.nn as nn

from blocks import CategoricalEmbedding, ResidualBlock


@dataclass
class TabConfig:
    n_num: int = 6
    cardinalities: list = field(default_factory=lambda: [5, 3, 7])
    d_token: int = 4
    d_main: int = 32
    d_hidden: int = 64
    n_blocks: int = 2
    n_classes: int = 3
    batch_size: int = 32
    epochs: int = 2
    lr: float = 1e-3


class TabularResNet(nn.Module):
    def __init__(self, cfg: TabConfig):
        super().__init__()
        self.cat_embed = CategoricalEmbedding(cfg.cardinalities, cfg.d_token)
        d_in = cfg.n_num + cfg.d_token * len(cfg.cardinalities)
        self.first_layer = nn.Linear(d_in, cfg.d_main)
        self.blocks = nn.Sequential(*[ResidualBlock(cfg.d_main, cfg.d_hidden) for _ in range(cfg.n_blocks)])
        self.head = nn.Sequential(nn.BatchNorm1d(cfg.d_main), nn.ReLU(), nn.Linear(cfg.d_main, cfg.n_classes))

    def forward(self, x_num, x_cat):
        x = torch.cat([x_num, self.cat_embed(x_cat)], dim=1)
        x = self.first_layer(x)
        x = self.blocks(x)
        return self.head(x)


def synthetic_table(cfg, n_rows=96, seed=0):
    g = torch.Generator().manual_seed(seed)
    x_num = torch.randn(n_rows, cfg.n_num, generator=g)
    x_cat = torch.stack([torch.randint(0, c, (n_rows,), generator=g) for c in cfg.cardinalities], dim=1)
    y = (x_num[:, 0] > 0).long() + (x_cat[:, 0] > 2).long()
    return x_num, x_cat, y


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = TabularResNet(cfg)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr, weight_decay=1e-5)
        self.loss_fn = nn.CrossEntropyLoss()

    def train_epoch(self, x_num, x_cat, y):
        self.model.train()
        perm = torch.randperm(len(y))
        losses = []
        for i in range(0, len(y), self.cfg.batch_size):
            idx = perm[i:i + self.cfg.batch_size]
            self.optimizer.zero_grad()
            logits = self.model(x_num[idx], x_cat[idx])
            loss = self.loss_fn(logits, y[idx])
            loss.backward()
            self.optimizer.step()
            losses.append(loss.item())
        return sum(losses) / len(losses)

    def fit(self, data):
        for epoch in range(self.cfg.epochs):
            print(f"epoch {epoch}: train loss {self.train_epoch(*data):.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = TabConfig()
    Trainer(cfg).fit(synthetic_table(cfg))
