"""A small Catalyst-like runner: handle_batch computes metrics, callbacks do the rest."""
from collections import defaultdict

import torch


class AverageMeter:
    def __init__(self):
        self.total, self.count = 0.0, 0

    def update(self, value, n):
        self.total += value * n
        self.count += n


class Engine:
    def backward(self, loss):
        loss.backward()


class BackwardCallback:
    def __init__(self, metric_key):
        self.metric_key = metric_key

    def on_batch_end(self, runner):
        if runner.is_train_loader:
            runner.engine.backward(runner.batch_metrics[self.metric_key])


class OptimizerCallback:
    def __init__(self, metric_key):
        self.metric_key = metric_key

    def on_batch_end(self, runner):
        if runner.is_train_loader:
            runner.optimizer.step()
            runner.optimizer.zero_grad()


class Runner:
    def __init__(self, model):
        self.model = model
        self.engine = Engine()

    def handle_batch(self, batch):
        raise NotImplementedError

    def train(self, *, criterion, optimizer, loaders, num_epochs=1, loss_key="loss", callbacks=None):
        self.criterion, self.optimizer = criterion, optimizer
        # like catalyst's default callbacks when an optimizer is given
        self.callbacks = [BackwardCallback(metric_key=loss_key), OptimizerCallback(metric_key=loss_key)]
        self.callbacks += list(callbacks or [])
        for epoch in range(num_epochs):
            for loader_key, loader in loaders.items():
                self.is_train_loader = loader_key.startswith("train")
                self.model.train(self.is_train_loader)
                self.meters = defaultdict(AverageMeter)
                with torch.set_grad_enabled(self.is_train_loader):
                    for batch in loader:
                        self.batch = batch
                        self.batch_size = len(batch["features"])
                        self.batch_metrics = {}
                        self.handle_batch(batch)
                        for cb in self.callbacks:
                            cb.on_batch_end(self)
                print(epoch, loader_key, {k: round(m.total / m.count, 4) for k, m in self.meters.items()})
