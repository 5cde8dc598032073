import torch


def make_subjects(n_subjects=32, n_tr=40, n_roi=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n_subjects, n_tr, n_roi, generator=g)
    y = (x[:, :, :4].mean(dim=(1, 2)) > 0).float()
    return x, y


def windows(x, y, batch_size, window):
    """Yield consecutive (batch, window) slices of the scans, like the sliding-window loader."""
    n = x.shape[0] - x.shape[0] % batch_size
    for start in range(0, n, batch_size):
        xb = x[start:start + batch_size]
        yb = y[start:start + batch_size]
        for t in range(0, xb.shape[1] - window + 1, window):
            yield xb[:, t:t + window], yb
