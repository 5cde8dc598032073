import functools

import torch

REAL_LABEL, FAKE_LABEL = 1.0, 0.0


def make_noise(batch_size, nz, device="cpu"):
    return torch.randn(batch_size, nz, device=device)


def labels(batch_size, value, device="cpu"):
    return torch.full((batch_size,), value, device=device)


real_labels = functools.partial(labels, value=REAL_LABEL)
fake_labels = functools.partial(labels, value=FAKE_LABEL)


def fake_mnist(n_batches, batch_size):
    for _ in range(n_batches):
        yield (torch.rand(batch_size, 16 * 16) * 2 - 1,)
