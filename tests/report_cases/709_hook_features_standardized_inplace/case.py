"""Entry point: classifier with a feature-decorrelation regulariser."""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import Backbone  # noqa: E402
from utils import decorrelation_loss, standardize_  # noqa: E402


def batch_stream(n, batch=16, in_dim=8, n_cls=3):
    g = torch.Generator().manual_seed(0)
    for _ in range(n):
        x = torch.randn(batch, in_dim, generator=g)
        yield x, (x[:, 0] > 0).long() + (x[:, 1] > 1).long()


def main(reg_weight=0.1):
    torch.manual_seed(0)
    model = Backbone()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    model.train()
    for step, (x, y) in enumerate(batch_stream(4)):
        logits = model(x)
        feat = standardize_(model.features["block1"], model.feat_mean, model.feat_var)
        loss = F.cross_entropy(logits, y) + reg_weight * decorrelation_loss(feat)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
