import argparse
import collections

import numpy as np
import torch

import algorithms


def default_hparams():
    return {'lr_d': 1e-3, 'lr_g': 1e-3, 'weight_decay_d': 0.0, 'weight_decay_g': 0.0, 'beta1': 0.5,
            'lambda': 1.0, 'grad_penalty': 0.1, 'd_steps_per_g_step': 1}


def make_env(shift, n=24, dim=6, num_classes=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, dim, generator=g) + shift
    y = (x[:, 0] - shift > 0).long() + (x[:, 1] - shift > 0).long()
    return x, y.clamp(max=num_classes - 1)


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description='Domain generalization')
    parser.add_argument('--algorithm', type=str, default='CDANN')
    parser.add_argument('--steps', type=int, default=6)
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()

    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    envs = [make_env(s, seed=i) for i, s in enumerate([0.0, 0.5, 1.0])]
    algorithm_class = getattr(algorithms, args.algorithm)
    algorithm = algorithm_class((6,), 3, len(envs), default_hparams())

    checkpoint_vals = collections.defaultdict(lambda: [])
    for step in range(args.steps):
        minibatches = []
        for x, y in envs:
            idx = torch.randint(0, x.size(0), (8,))
            minibatches.append((x[idx], y[idx]))
        step_vals = algorithm.update(minibatches)
        for key, val in step_vals.items():
            checkpoint_vals[key].append(val)
    print({k: np.mean(v) for k, v in checkpoint_vals.items()})
