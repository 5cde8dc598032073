"""R-peak detection in ECG windows with a 1-D inception U-Net (regression of a proximity signal)."""
import torch
import torch.nn as nn
from network_inplace_safe import IncUNet

torch.manual_seed(0)


def make_batch(batch=8, length=256):
    t = torch.linspace(0, 1, length)
    peaks = torch.randint(20, length - 20, (batch, 3))
    ecg = 0.1 * torch.randn(batch, 1, length)
    target = torch.zeros(batch, 1, length)
    for b in range(batch):
        for p in peaks[b]:
            ecg[b, 0, p] += 1.0
            target[b, 0] += torch.exp(-((torch.arange(length) - p).float() ** 2) / 50.0)
    return ecg + 0.05 * torch.sin(40 * t), target


def train(epochs=3):
    model = IncUNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.SmoothL1Loss()
    for epoch in range(epochs):
        ecg, target = make_batch()
        pred = model(ecg)
        loss = criterion(pred, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
