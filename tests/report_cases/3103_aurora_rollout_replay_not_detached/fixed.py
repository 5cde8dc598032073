"""Roll-out fine-tuning of a small gridded weather model: predictions are pushed into a replay
buffer and later used as inputs for further one-step predictions (longer lead times)."""
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)


class WeatherNet(nn.Module):
    def __init__(self, channels=3, hidden=16):
        super().__init__()
        self.encoder = nn.Conv2d(channels, hidden, 3, padding=1)
        self.processor = nn.Sequential(nn.GELU(), nn.Conv2d(hidden, hidden, 3, padding=1), nn.GELU())
        self.decoder = nn.Conv2d(hidden, channels, 3, padding=1)

    def forward(self, state):
        return state + self.decoder(self.processor(self.encoder(state)))


class ERA5Toy:
    """Stand-in for ERA5: a smooth field advected one cell per 6 h step."""

    def __init__(self, n_times=40):
        base = torch.randn(1, 3, 8, 8)
        self.fields = [torch.roll(base, shifts=t, dims=-1) for t in range(n_times)]

    def sample(self):
        t = random.randint(0, len(self.fields) - 5)
        return t, self.fields[t]


def rollout_finetune(steps=6, max_lead=3):
    data = ERA5Toy()
    model = WeatherNet()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    replay_buffer = []
    for step in range(steps):
        if replay_buffer and random.random() < 0.7:
            t, lead, state = replay_buffer.pop(0)
        else:
            t, state = data.sample()
            lead = 0
        pred = model(state)
        target = data.fields[t + lead + 1]
        loss = F.mse_loss(pred, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if lead + 1 < max_lead:
            replay_buffer.append((t, lead + 1, pred.detach()))
        print(f"step {step} lead {lead + 1} mse {loss.item():.4f}")


if __name__ == "__main__":
    rollout_finetune()
