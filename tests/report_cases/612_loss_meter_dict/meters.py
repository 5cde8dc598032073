from collections import defaultdict


class LossMeter:
    """Running sums of every loss term, for the epoch summary and tensorboard."""

    def __init__(self):
        self.sums = defaultdict(float)
        self.count = 0

    def update(self, loss_dict):
        for key in loss_dict:
            self.sums[key] += loss_dict[key]
        self.count += 1

    def averages(self):
        return {key: value / self.count for key, value in self.sums.items()}
