"""Tiny metric helpers in the style of an engine/metrics library: an epoch-level
metric accumulates every batch's predictions and targets and computes the
score (here ROC-AUC via the rank statistic) at the end of the epoch."""
import torch


class EpochMetric:
    def __init__(self, compute_fn):
        self.compute_fn = compute_fn
        self.reset()

    def reset(self):
        self._predictions, self._targets = [], []

    def update(self, output):
        y_pred, y = output
        self._predictions.append(y_pred)
        self._targets.append(y)

    def compute(self):
        return self.compute_fn(torch.cat(self._predictions), torch.cat(self._targets))


def roc_auc(scores, labels):
    order = scores.argsort()
    ranks = torch.empty_like(scores)
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=scores.dtype)
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return ((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)).item()
