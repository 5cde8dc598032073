"""SRGAN-style update with a GradScaler (CPU stand-in for torch.cuda.amp)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cpu"


class Generator(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.PReLU(),
                                  nn.Conv2d(ch, 3 * 4, 3, padding=1))
        self.up = nn.PixelShuffle(2)

    def forward(self, x):
        return torch.tanh(self.up(self.body(x)))


class Discriminator(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, ch, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                                      nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.LeakyReLU(0.2))
        self.classifier = nn.Linear(ch * 4 * 4, 1)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def train(epochs=2, steps=2):
    torch.manual_seed(0)
    generator, discriminator = Generator().to(device), Discriminator().to(device)
    g_optimizer = torch.optim.Adam(generator.parameters(), lr=1e-4)
    d_optimizer = torch.optim.Adam(discriminator.parameters(), lr=1e-4)
    scaler = torch.amp.GradScaler(device)
    adv_criterion = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        for _ in range(steps):
            hr = torch.rand(2, 3, 16, 16) * 2 - 1
            lr = F.avg_pool2d(hr, 2)
            real_label = torch.ones(2, 1)
            fake_label = torch.zeros(2, 1)

            # (1) update G: content loss + adversarial loss
            g_optimizer.zero_grad()
            sr = generator(lr)
            g_loss = F.mse_loss(sr, hr) + 1e-3 * adv_criterion(discriminator(sr), real_label)
            scaler.scale(g_loss).backward(retain_graph=True)
            scaler.step(g_optimizer)

            # (2) update D on real HR and the SR images from this step
            d_optimizer.zero_grad()
            d_loss = adv_criterion(discriminator(hr), real_label) + \
                adv_criterion(discriminator(sr), fake_label)
            scaler.scale(d_loss).backward()
            scaler.step(d_optimizer)
            scaler.update()
        print(f"epoch {epoch} g={g_loss.item():.4f} d={d_loss.item():.4f}")


if __name__ == "__main__":
    train()
