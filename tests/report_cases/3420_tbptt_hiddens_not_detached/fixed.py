"""Truncated back-propagation through time for multivariate sensor
forecasting: a small training framework splits each long sequence into
chunks and passes the recurrent hidden state from one chunk to the next."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_SENSORS, HIDDEN = 3, 32


def make_series(batch=16, length=60):
    t = torch.arange(length).float()
    freq = torch.rand(batch, 1, N_SENSORS) * 0.3 + 0.05
    phase = torch.rand(batch, 1, N_SENSORS) * 2 * math.pi
    x = torch.sin(freq * t.view(1, -1, 1) + phase) + 0.05 * torch.randn(batch, length, N_SENSORS)
    return x[:, :-1], x[:, 1:]


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(N_SENSORS, HIDDEN, batch_first=True)
        self.head = nn.Linear(HIDDEN, N_SENSORS)

    def forward(self, x, hiddens=None):
        out, hiddens = self.lstm(x, hiddens)
        return self.head(out), hiddens

    def training_step(self, split, hiddens):
        x, y = split
        pred, hiddens = self(x, hiddens)
        return {"loss": F.mse_loss(pred, y), "hiddens": hiddens}


class TBPTTTrainer:
    def __init__(self, model, tbptt_steps=10, lr=3e-3):
        self.model = model
        self.tbptt_steps = tbptt_steps
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def split_batch(self, x, y):
        return [(x[:, i : i + self.tbptt_steps], y[:, i : i + self.tbptt_steps])
                for i in range(0, x.size(1), self.tbptt_steps)]

    def run_batch(self, x, y):
        hiddens, losses = None, []
        for split in self.split_batch(x, y):
            output = self.model.training_step(split, hiddens)
            self.optimizer.zero_grad()
            output["loss"].backward()
            self.optimizer.step()
            hiddens = tuple(h.detach() for h in output["hiddens"])
            losses.append(output["loss"].item())
        return sum(losses) / len(losses)

    def fit(self, epochs=4):
        for epoch in range(epochs):
            x, y = make_series()
            print(f"epoch {epoch}: mse {self.run_batch(x, y):.4f}")


if __name__ == "__main__":
    TBPTTTrainer(Forecaster()).fit()
