"""Metric learning (triplet margin on normalized embeddings) + auxiliary classifier head."""
import logging
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
LOG = logging.getLogger("train_with_classifier")


@dataclass
class Cfg:
    in_dim: int = 20
    trunk_dim: int = 32
    embed_dim: int = 16
    n_classes: int = 4
    margin: float = 0.2
    classifier_weight: float = 0.5
    lr: float = 1e-3
    iterations: int = 3
    batch_per_class: int = 4


class MLP(nn.Module):
    """Same helper used for both embedder and classifier."""

    def __init__(self, layer_sizes, final_relu=False):
        super().__init__()
        layers = []
        for i in range(len(layer_sizes) - 1):
            if i > 0 or final_relu:
                layers.append(nn.ReLU(inplace=True))
            layers.append(nn.Linear(layer_sizes[i], layer_sizes[i + 1]))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


def batch_hard_triplet(emb, labels, margin):
    emb = F.normalize(emb, dim=1)
    dist = torch.cdist(emb, emb)
    same = labels[:, None] == labels[None, :]
    hardest_pos = (dist * same.float()).max(dim=1).values
    hardest_neg = (dist + 10.0 * same.float()).min(dim=1).values
    return F.relu(hardest_pos - hardest_neg + margin).mean()


class TrainWithClassifier:
    def __init__(self, cfg):
        self.cfg = cfg
        self.models = {
            "trunk": nn.Sequential(nn.Linear(cfg.in_dim, cfg.trunk_dim), nn.ReLU()),
            "embedder": MLP([cfg.trunk_dim, cfg.embed_dim]),
            "classifier": MLP([cfg.embed_dim, cfg.embed_dim, cfg.n_classes], final_relu=True),
        }
        params = [p for m in self.models.values() for p in m.parameters()]
        self.optimizer = torch.optim.Adam(params, lr=cfg.lr)
        self.losses = {}

    def calculate_loss(self, data, labels):
        embeddings = self.models["embedder"](self.models["trunk"](data))
        self.losses["metric_loss"] = batch_hard_triplet(embeddings, labels, self.cfg.margin)
        logits = self.models["classifier"](embeddings)
        self.losses["classifier_loss"] = F.cross_entropy(logits, labels)

    def train_step(self, data, labels):
        self.calculate_loss(data, labels)
        total = self.losses["metric_loss"] + self.cfg.classifier_weight * self.losses["classifier_loss"]
        self.optimizer.zero_grad()
        total.backward()
        self.optimizer.step()
        return {k: v.item() for k, v in self.losses.items()}


def main():
    cfg = Cfg()
    torch.manual_seed(4)
    centers = torch.randn(cfg.n_classes, cfg.in_dim)
    trainer = TrainWithClassifier(cfg)
    for it in range(cfg.iterations):
        labels = torch.arange(cfg.n_classes).repeat_interleave(cfg.batch_per_class)
        data = centers[labels] + 0.3 * torch.randn(labels.numel(), cfg.in_dim)
        LOG.info("iter %d %s", it, trainer.train_step(data, labels))


if __name__ == "__main__":
    main()
