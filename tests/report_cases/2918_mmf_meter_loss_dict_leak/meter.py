from collections import defaultdict, deque


class SmoothedValue:
    """Track a series of values and provide access to smoothed values over a window."""

    def __init__(self, window_size=20):
        self.deque = deque(maxlen=window_size)
        self.total = 0.0
        self.count = 0

    def update(self, value, batch_size=1):
        self.deque.append(value * batch_size)
        self.count += batch_size
        self.total += value * batch_size

    @property
    def global_avg(self):
        return self.total / self.count


class Meter:
    def __init__(self):
        self.meters = defaultdict(SmoothedValue)

    def update(self, update_dict, batch_size=1):
        for k, v in update_dict.items():
            self.meters[k].update(v, batch_size)

    def __str__(self):
        return ", ".join(f"{k}: {float(m.global_avg):.4f}" for k, m in self.meters.items())
