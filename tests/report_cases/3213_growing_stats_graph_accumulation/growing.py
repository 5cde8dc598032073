import torch
import torch.nn as nn


class TensorStatistic:
    """Running average of a tensor-valued statistic, updated once per batch."""

    def __init__(self, name):
        self.name = name
        self._tensor = None
        self.samples = 0

    def update(self, update_function):
        new_tensor, n = update_function()
        self._tensor = new_tensor if self._tensor is None else self._tensor + new_tensor
        self.samples += n

    def __call__(self):
        return self._tensor / self.samples


class LinearGrowingModule(nn.Linear):
    """Linear layer that records the second-order statistic S = E[x x^T] of its input, later used
    to compute the best new neurons to add."""

    def __init__(self, in_features, out_features):
        super().__init__(in_features, out_features)
        self.tensor_s = TensorStatistic("S")
        self.store_input = True

    def forward(self, x):
        if self.store_input:
            self.tensor_s.update(lambda: (x.t() @ x, x.shape[0]))
        return super().forward(x)
