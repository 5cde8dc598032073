"""Synthetic ROI time series standing in for the preprocessed fMRI windows."""
import torch


def roi_windows(n_batches, batch_size, seq_len, n_roi, seed=0):
    """Yield (x, y) windows: x is (batch, time, roi), y is a binary label per subject."""
    g = torch.Generator().manual_seed(seed)
    for _ in range(n_batches):
        x = torch.randn(batch_size, seq_len, n_roi, generator=g)
        y = (x[:, :, : n_roi // 2].mean(dim=(1, 2)) > 0).float()
        yield x, y
