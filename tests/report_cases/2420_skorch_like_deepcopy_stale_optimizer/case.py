"""Warm-start experiment: fit a regressor, deep-copy the fitted estimator and
continue training the copy on new data (sklearn-style model selection)."""
import argparse
import copy

import torch
import torch.nn as nn

from net import NeuralNetRegressor


class Simple(nn.Module):
    def __init__(self):
        super().__init__()
        self.simple = nn.Sequential(nn.Linear(28 * 28, 1), nn.Sigmoid())

    def forward(self, x):
        return self.simple(x)


def get_data(n, d, seed):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(n, d, generator=g)
    w = torch.randn(d, 1, generator=g) / d ** 0.5
    y = X @ w
    y = (y - y.min()) / (y.max() - y.min())
    return X, y


def first_params(net):
    return next(net.module_.parameters()).detach().flatten()[:3].clone()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--max_epochs", type=int, default=3)
    args = parser.parse_args()
    torch.manual_seed(0)
    X, y = get_data(args.n, 28 * 28, seed=1)

    n1 = NeuralNetRegressor(module=Simple, max_epochs=args.max_epochs).initialize()
    n1.partial_fit(X, y)
    print("n1 first params =", first_params(n1))

    n2 = copy.deepcopy(n1)
    before = first_params(n2)
    X_new, y_new = get_data(args.n, 28 * 28, seed=2)
    n2.partial_fit(X_new, y_new)
    print("n2 first params =", first_params(n2), "changed:", not torch.equal(before, first_params(n2)))
    print("n2 train loss history:", [round(h, 4) for h in n2.history])


if __name__ == "__main__":
    main()
