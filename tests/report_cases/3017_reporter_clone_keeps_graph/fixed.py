"""Keyword-spotting CNN on MFCC-like frames trained with a pytorch-pfn-extras style
ExtensionsManager: the training step reports its loss and accuracy to the current reporter
and a LogReport extension averages the observations every few iterations."""
import contextlib

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def graph_size(tensors):
    stack, seen = [getattr(t, "grad_fn", None) for t in tensors], set()
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class Reporter:
    def __init__(self):
        self.observation = None

    @contextlib.contextmanager
    def scope(self, observation):
        old, self.observation = self.observation, observation
        yield
        self.observation = old

    def report(self, values):
        for key, value in values.items():
            if isinstance(value, torch.Tensor):
                value = value.detach()  # drop the graph, keep the value
            self.observation[key] = value


_reporter = Reporter()


def report(values):
    _reporter.report(values)


class DictSummary:
    def __init__(self):
        self._x, self._n = {}, {}

    def add(self, d):
        for k, v in d.items():
            self._x[k] = self._x.get(k, 0.0) + v
            self._n[k] = self._n.get(k, 0) + 1

    def compute_mean(self):
        return {k: self._x[k] / self._n[k] for k in self._x}


class LogReport:
    def __init__(self, interval=5):
        self.interval, self.log, self._summary = interval, [], DictSummary()

    def __call__(self, manager):
        self._summary.add(manager.observation)
        print(f"iter {manager.iteration}: graph nodes held by LogReport summary = {graph_size(self._summary._x.values())}")
        if manager.iteration % self.interval == 0:
            entry = {k: float(v) for k, v in self._summary.compute_mean().items()}
            entry["iteration"] = manager.iteration
            self.log.append(entry)
            print(entry)
            self._summary = DictSummary()


class ExtensionsManager:
    def __init__(self, model, optimizer, extensions):
        self.model, self.optimizer, self.extensions = model, optimizer, extensions
        self.iteration, self.observation = 0, {}

    @contextlib.contextmanager
    def run_iteration(self):
        self.observation = {}
        with _reporter.scope(self.observation):
            yield
        self.iteration += 1
        for ext in self.extensions:
            ext(self)


class KeywordSpotter(nn.Module):
    def __init__(self, n_mfcc=13, n_keywords=6):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mfcc, 32, 3, padding=1)
        self.conv2 = nn.Conv1d(32, 32, 3, padding=1)
        self.fc = nn.Linear(32, n_keywords)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        return self.fc(x.mean(dim=2))


def train(manager, model, optimizer, n_iters=10):
    model.train()
    for _ in range(n_iters):
        with manager.run_iteration():
            mfcc, target = torch.randn(16, 13, 25), torch.randint(0, 6, (16,))
            logits = model(mfcc)
            loss = F.cross_entropy(logits, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            report({"train/loss": loss, "train/nll_scaled": loss * mfcc.shape[0]})


def main():
    model = KeywordSpotter()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    manager = ExtensionsManager(model, optimizer, [LogReport(interval=5)])
    train(manager, model, optimizer)


if __name__ == "__main__":
    main()
