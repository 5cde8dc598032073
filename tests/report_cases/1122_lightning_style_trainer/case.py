"""Fit a small physics-informed network with a Lightning-like module/trainer split."""
import functools
import math

import torch

from module import LitPINN
from trainer import Trainer


def make_batches(n_batches, n_data=16, n_col=32):
    for _ in range(n_batches):
        x_data = torch.rand(n_data, 1) * math.pi
        x_col = torch.rand(n_col, 1) * math.pi
        yield x_data, torch.sin(x_data), x_col


if __name__ == "__main__":
    torch.manual_seed(0)
    model = LitPINN()
    trainer = Trainer(max_epochs=3)
    trainer.fit(model, functools.partial(make_batches, 4), functools.partial(make_batches, 2))
