import math


def graph_size(t):
    if getattr(t, "grad_fn", None) is None:
        return 0
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class Trainer:
    def __init__(self, model, criterion, optimizer, log_interval=100):
        self.model, self.criterion, self.optimizer = model, criterion, optimizer
        self.log_interval = log_interval
        self._logging_outputs = []  # aggregated at log time

    def train_step(self, sample):
        self.model.train()
        self.optimizer.zero_grad()
        loss, sample_size, logging_output = self.criterion(self.model, sample)
        (loss / sample_size).backward()
        self.optimizer.step()
        self._logging_outputs.append(logging_output)
        if len(self._logging_outputs) >= self.log_interval:
            self.flush_logs()
        return logging_output

    def held_graph_nodes(self):
        return sum(graph_size(lo["loss"]) for lo in self._logging_outputs)

    def flush_logs(self):
        loss_sum = sum(float(lo["loss"]) for lo in self._logging_outputs)
        sample_size = sum(lo["sample_size"] for lo in self._logging_outputs)
        print("loss", round(loss_sum / sample_size / math.log(2), 4))
        self._logging_outputs = []
