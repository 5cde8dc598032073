"""Logging helpers: running averages of named losses."""
from collections import defaultdict


class AverageMeter:
    def __init__(self):
        self.total = defaultdict(float)
        self.count = 0

    def update(self, loss_dict, n):
        for name, value in loss_dict.items():
            self.total[name] += value.item() * n
        self.count += n

    def summary(self):
        return {k: round(v / max(self.count, 1), 4) for k, v in self.total.items()}

    def reset(self):
        self.total.clear()
        self.count = 0
