"""Temporal forecasting model trained with a hand-written metric used as the loss.

MultiHorizonMetric-like base class: subclasses implement loss(y_pred, target) and the
base class reduces it. The custom weighted SMAPE is written with torch operations.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn

torch.manual_seed(0)


class MultiHorizonMetric:
    def __init__(self, reduction="mean"):
        self.reduction = reduction

    def loss(self, y_pred, target):
        raise NotImplementedError

    def __call__(self, y_pred, target):
        losses = self.loss(y_pred, target)
        return losses.mean() if self.reduction == "mean" else losses.sum()


class WeightedSMAPE(MultiHorizonMetric):
    def __init__(self, horizon_weights, **kwargs):
        super().__init__(**kwargs)
        self.horizon_weights = torch.tensor(horizon_weights, dtype=torch.float32)

    def loss(self, y_pred, target):
        smape = 2 * (y_pred - target).abs() / (y_pred.abs() + target.abs() + 1e-8)
        return smape * self.horizon_weights


@dataclass
class HParams:
    encoder_length: int = 12
    horizon: int = 4
    hidden: int = 16
    lr: float = 1e-2
    epochs: int = 3


class LSTMForecaster(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.lstm = nn.LSTM(1, hp.hidden, batch_first=True)
        self.head = nn.Linear(hp.hidden, hp.horizon)

    def forward(self, x):
        _, (h, _) = self.lstm(x.unsqueeze(-1))
        return self.head(h[-1])


hp = HParams()
series = torch.sin(torch.linspace(0, 12, 200)) + 1.5 + 0.1 * torch.randn(200)
windows = series.unfold(0, hp.encoder_length + hp.horizon, 4)
x_all, y_all = windows[:, :hp.encoder_length], windows[:, hp.encoder_length:]

model = LSTMForecaster(hp)
criterion = WeightedSMAPE(horizon_weights=[1.0, 1.0, 0.8, 0.6])
optimizer = torch.optim.Adam(model.parameters(), lr=hp.lr)
for epoch in range(hp.epochs):
    for i in range(0, 24, 8):
        optimizer.zero_grad()
        loss = criterion(model(x_all[i:i + 8]), y_all[i:i + 8])
        loss.backward()
        optimizer.step()
    print(epoch, loss.item())
