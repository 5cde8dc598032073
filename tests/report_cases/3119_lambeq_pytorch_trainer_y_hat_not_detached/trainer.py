from collections import defaultdict

import torch


def graph_nodes(values):
    seen, stack = set(), [v.grad_fn for v in values if torch.is_tensor(v) and v.grad_fn is not None]
    while stack:
        fn = stack.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class Trainer:
    """Base trainer: runs training_step per batch and evaluates metrics on the training outputs."""

    def __init__(self, model, loss_function, epochs, evaluate_functions=None, evaluate_on_train=True):
        self.model, self.loss_function, self.epochs = model, loss_function, epochs
        self.evaluate_functions = evaluate_functions
        self.evaluate_on_train = evaluate_on_train
        self.train_costs = []

    def fit(self, train_batches):
        for epoch in range(self.epochs):
            train_results_epoch = defaultdict(list)
            for batch in train_batches:
                y_hat, loss = self.training_step(batch)
                if self.evaluate_on_train and self.evaluate_functions is not None:
                    for metr, func in self.evaluate_functions.items():
                        train_results_epoch[metr].append(len(batch[0]) * func(y_hat, batch[1]))
                print(f"epoch {epoch} loss {loss:.4f} graph nodes held by epoch results: "
                      f"{graph_nodes([r for rs in train_results_epoch.values() for r in rs])}")
            n = sum(len(b[0]) for b in train_batches)
            summary = {m: float(sum(rs)) / n for m, rs in train_results_epoch.items()}
            print(f"epoch {epoch} train metrics {summary}")
