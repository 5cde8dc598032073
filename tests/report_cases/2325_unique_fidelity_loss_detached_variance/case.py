"""UNIQUE-style uncertainty-aware blind image quality model trained on
image pairs: a fidelity loss on the Thurstone preference probability and a
hinge loss that ranks the predicted uncertainties by the MOS std.
"""
import argparse

import torch
import torch.nn as nn


class BaseCNN(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, width, 3, 2, 1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, 2 * width, 3, 2, 1), nn.BatchNorm2d(2 * width), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(2 * width, 2)

    def forward(self, x):
        out = self.fc(self.features(x).flatten(1))
        mean = out[:, 0]
        var = nn.functional.softplus(out[:, 1]) + 1e-6
        return mean, var


class Fidelity_Loss(nn.Module):
    def forward(self, p, g):
        g = g.view(-1, 1)
        p = p.view(-1, 1)
        loss = 1 - (torch.sqrt(p * g + 1e-8) + torch.sqrt((1 - p) * (1 - g) + 1e-8))
        return loss.mean()


class Trainer:
    def __init__(self, config):
        self.model = BaseCNN()
        self.loss_fn = Fidelity_Loss()
        self.std_loss_fn = nn.MarginRankingLoss(margin=config.margin)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config.lr)

    def _train_single_batch(self, x1, x2, g, gstd1, gstd2):
        self.optimizer.zero_grad()
        y1, y1_var = self.model(x1)
        y2, y2_var = self.model(x2)
        y_diff = y1 - y2
        y_var = y1_var + y2_var + 1e-8
        p = 0.5 * (1 + torch.erf(y_diff / torch.sqrt(2 * y_var.detach())))
        self.loss = self.loss_fn(p, g.detach())
        std_label = torch.sign((gstd1 - gstd2))
        self.std_loss = self.std_loss_fn(y1_var, y2_var, std_label.detach())
        total = self.loss + self.std_loss
        total.backward()
        self.optimizer.step()
        return self.loss.item(), self.std_loss.item()

    def fit(self, loader, epochs):
        self.model.train()
        for epoch in range(epochs):
            stats = [self._train_single_batch(*batch) for batch in loader]
            fid = sum(s[0] for s in stats) / len(stats)
            std = sum(s[1] for s in stats) / len(stats)
            print(f"epoch {epoch}: fidelity {fid:.4f} std-hinge {std:.4f}")


def make_pairs(n, size=32):
    x1, x2 = torch.rand(n, 3, size, size), torch.rand(n, 3, size, size)
    mos1, mos2 = x1.mean((1, 2, 3)), x2.mean((1, 2, 3))
    g = 0.5 * (1 + torch.erf((mos1 - mos2) / 0.05))
    return x1, x2, g, torch.rand(n), torch.rand(n)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--margin", type=float, default=0.025)
    parser.add_argument("--epochs", type=int, default=2)
    config = parser.parse_args()
    torch.manual_seed(0)
    loader = [make_pairs(8) for _ in range(4)]
    Trainer(config).fit(loader, config.epochs)


if __name__ == "__main__":
    main()
