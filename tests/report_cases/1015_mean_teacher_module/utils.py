import functools

import torch


def add_gaussian_noise(x, std=0.15):
    return x + std * torch.randn_like(x)


def sigmoid_rampup(current, rampup_length):
    if rampup_length == 0:
        return 1.0
    current = max(0.0, min(float(current), rampup_length))
    phase = 1.0 - current / rampup_length
    return float(torch.exp(torch.tensor(-5.0 * phase * phase)))


def no_grad_method(fn):
    """Decorator: run a module method without recording autograd history."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with torch.no_grad():
            return fn(*args, **kwargs)

    return wrapper


def two_stream_batches(n_batches, labeled_bs=4, unlabeled_bs=12, dim=20, num_classes=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(num_classes, dim, generator=g) * 2
    for _ in range(n_batches):
        y = torch.randint(0, num_classes, (labeled_bs + unlabeled_bs,), generator=g)
        x = centers[y] + torch.randn(labeled_bs + unlabeled_bs, dim, generator=g)
        y[labeled_bs:] = -1  # NO_LABEL
        yield x, y
