"""Range-image autoencoder for LiDAR scans (SlowLiDAR-style model.py).

The decoder predicts normalised channels (range, x, y, z, intensity) and
de-normalises them back to physical units before the loss is computed.
"""
import argparse

import torch
import torch.nn as nn


CHANNEL_MEAN = [12.1, 10.9, 0.2, -1.0, 0.25]
CHANNEL_STD = [12.3, 11.5, 6.9, 0.9, 0.15]


class Encoder(nn.Module):
    def __init__(self, in_ch=5, width=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(in_ch, width, 3, (1, 2), 1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, 2 * width, 3, (1, 2), 1), nn.BatchNorm2d(2 * width), nn.ReLU(),
        )

    def forward(self, x):
        return self.net(x)


class Decoder(nn.Module):
    def __init__(self, out_ch=5, width=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose2d(2 * width, width, (3, 4), (1, 2), 1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.ConvTranspose2d(width, width, (3, 4), (1, 2), 1), nn.ReLU(),
            nn.Conv2d(width, out_ch, 1),
        )
        self.register_buffer("target_mean", torch.tensor(CHANNEL_MEAN))
        self.register_buffer("target_std_dev", torch.tensor(CHANNEL_STD))

    def forward(self, z):
        x = torch.tanh(self.net(z))
        for i in range(x.shape[1]):
            x[:, i, :, :] = x[:, i, :, :] * self.target_std_dev[i] + self.target_mean[i]
        return x


class RangeAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = Decoder()
        self.register_buffer("in_mean", torch.tensor(CHANNEL_MEAN).view(1, -1, 1, 1))
        self.register_buffer("in_std", torch.tensor(CHANNEL_STD).view(1, -1, 1, 1))

    def forward(self, scan):
        return self.decoder(self.encoder((scan - self.in_mean) / self.in_std))


def fake_scans(n, h=16, w=64):
    base = torch.tensor(CHANNEL_MEAN).view(1, -1, 1, 1)
    spread = torch.tensor(CHANNEL_STD).view(1, -1, 1, 1)
    return base + spread * torch.randn(n, 5, h, w) * 0.5


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batches", type=int, default=4)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()

    torch.manual_seed(0)
    model = RangeAE()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.SmoothL1Loss()
    for epoch in range(args.epochs):
        total = 0.0
        for _ in range(args.batches):
            scans = fake_scans(4)
            recon = model(scans)
            loss = criterion(recon, scans)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: {total / args.batches:.4f}")


if __name__ == "__main__":
    main()
