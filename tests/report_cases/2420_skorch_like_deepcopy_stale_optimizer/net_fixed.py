"""Minimal skorch-like estimator wrapper (sklearn-style fit/partial_fit)."""
import io

import torch
import torch.nn as nn


class NeuralNetRegressor:
    # attributes holding tensors are serialised with torch.save so that a
    # pickled / copied net can be restored on a machine without CUDA
    cuda_dependent_attributes_ = ["module_", "optimizer_"]

    def __init__(self, module, lr=0.05, max_epochs=5, batch_size=64, optimizer=torch.optim.SGD):
        self.module, self.lr, self.max_epochs, self.batch_size = module, lr, max_epochs, batch_size
        self.optimizer = optimizer
        self.history = []

    def initialize(self):
        self.module_ = self.module()
        self.criterion_ = nn.MSELoss()
        self.optimizer_ = self.optimizer(self.module_.parameters(), lr=self.lr)
        return self

    def train_step(self, Xi, yi):
        self.module_.train()
        self.optimizer_.zero_grad()
        loss = self.criterion_(self.module_(Xi), yi)
        loss.backward()
        self.optimizer_.step()
        return loss.item()

    def partial_fit(self, X, y):
        for _ in range(self.max_epochs):
            perm = torch.randperm(len(X))
            losses = [self.train_step(X[idx], y[idx]) for idx in perm.split(self.batch_size)]
            self.history.append(sum(losses) / len(losses))
        return self

    def fit(self, X, y):
        return self.initialize().partial_fit(X, y)

    def __getstate__(self):
        # save all tensor-holding attributes in ONE torch.save call, so the
        # optimizer keeps pointing at the very parameters of the module
        state = self.__dict__.copy()
        bundle = {k: state.pop(k) for k in self.cuda_dependent_attributes_ if k in state}
        buf = io.BytesIO()
        torch.save(bundle, buf)
        state["__cuda_dependent__"] = buf.getvalue()
        return state

    def __setstate__(self, state):
        bundle = torch.load(io.BytesIO(state.pop("__cuda_dependent__")), weights_only=False)
        state.update(bundle)
        self.__dict__.update(state)
