"""Short multi-step fine-tuning of a small gridded weather model: the model is unrolled for a few
6 h steps inside one graph and the summed loss over all lead times is backpropagated once."""
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
    def __init__(self, n_times=40):
        base = torch.randn(1, 3, 8, 8)
        self.fields = [torch.roll(base, shifts=t, dims=-1) for t in range(n_times)]

    def sample(self):
        t = random.randint(0, len(self.fields) - 5)
        return t, self.fields[t]


def multistep_finetune(steps=4, rollout=3):
    data = ERA5Toy()
    model = WeatherNet()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for step in range(steps):
        t, state = data.sample()
        loss = 0.0
        for lead in range(rollout):
            state = model(state)
            loss = loss + F.mse_loss(state, data.fields[t + lead + 1]) / rollout
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} mse {loss.item():.4f}")


if __name__ == "__main__":
    multistep_finetune()
