import torch

from models import nz


def make_noise(batch_size):
    return torch.randn(batch_size, nz, 1, 1)


def real_batches(n_batches, batch_size, seed=0):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n_batches):
        yield torch.rand(batch_size, 1, 16, 16, generator=g) * 2 - 1
