from collections import deque, OrderedDict


class SmoothedValue(object):
    """Track a series of values and provide access to smoothed values over a
    window or the global series average."""

    def __init__(self, window_size):
        self.deque = deque(maxlen=window_size)
        self.series = []
        self.total = 0.0
        self.count = 0

    def AddValue(self, value):
        self.deque.append(value)
        self.series.append(value)
        self.count += 1
        self.total += value

    def GetMedianValue(self):
        values = sorted(float(v) for v in self.deque)
        return values[len(values) // 2]

    def GetGlobalAverageValue(self):
        return float(self.total) / self.count


class TrainingStats(object):
    def __init__(self, log_period=4, window=20):
        self.LOG_PERIOD = log_period
        self.smoothed_losses = OrderedDict()
        self.smoothed_total_loss = SmoothedValue(window)
        self.window = window

    def UpdateIterStats(self, loss_dict, total_loss):
        for k, v in loss_dict.items():
            if k not in self.smoothed_losses:
                self.smoothed_losses[k] = SmoothedValue(self.window)
            self.smoothed_losses[k].AddValue(v)
        self.smoothed_total_loss.AddValue(total_loss)

    def LogIterStats(self, cur_iter):
        if cur_iter % self.LOG_PERIOD == 0:
            parts = ['%s: %.4f' % (k, v.GetMedianValue()) for k, v in self.smoothed_losses.items()]
            print('iter %d  loss: %.4f  %s' % (cur_iter, self.smoothed_total_loss.GetMedianValue(), '  '.join(parts)))
