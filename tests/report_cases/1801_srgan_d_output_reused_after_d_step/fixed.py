import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(channels)
        self.prelu = nn.PReLU()
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        residual = self.prelu(self.bn1(self.conv1(x)))
        residual = self.bn2(self.conv2(residual))
        return x + residual


class Generator(nn.Module):
    def __init__(self, scale_factor=2, channels=16):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, channels, 9, padding=4), nn.PReLU())
        self.blocks = nn.Sequential(ResidualBlock(channels), ResidualBlock(channels))
        self.upsample = nn.Sequential(
            nn.Conv2d(channels, channels * scale_factor ** 2, 3, padding=1),
            nn.PixelShuffle(scale_factor), nn.PReLU())
        self.last = nn.Conv2d(channels, 3, 9, padding=4)

    def forward(self, x):
        b1 = self.block1(x)
        out = self.upsample(b1 + self.blocks(b1))
        return (torch.tanh(self.last(out)) + 1) / 2


class Discriminator(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, channels, 3, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(channels, channels, 3, stride=2, padding=1), nn.BatchNorm2d(channels), nn.LeakyReLU(0.2),
            nn.Conv2d(channels, 2 * channels, 3, stride=2, padding=1), nn.BatchNorm2d(2 * channels), nn.LeakyReLU(0.2),
            nn.AdaptiveAvgPool2d(1),
            nn.Conv2d(2 * channels, 1, 1))

    def forward(self, x):
        return torch.sigmoid(self.net(x).view(x.size(0)))


class TVLoss(nn.Module):
    def forward(self, x):
        h_tv = torch.pow(x[:, :, 1:, :] - x[:, :, :-1, :], 2).sum()
        w_tv = torch.pow(x[:, :, :, 1:] - x[:, :, :, :-1], 2).sum()
        return (h_tv + w_tv) / x.size(0)


class GeneratorLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.mse_loss = nn.MSELoss()
        self.tv_loss = TVLoss()

    def forward(self, out_labels, out_images, target_images):
        adversarial_loss = torch.mean(1 - out_labels)
        image_loss = self.mse_loss(out_images, target_images)
        tv_loss = self.tv_loss(out_images)
        return image_loss + 0.001 * adversarial_loss + 2e-8 * tv_loss


class SRGANTrainer:
    def __init__(self, upscale=2, lr=1e-3):
        self.netG = Generator(upscale)
        self.netD = Discriminator()
        self.generator_criterion = GeneratorLoss()
        self.optimizerG = optim.Adam(self.netG.parameters(), lr=lr)
        self.optimizerD = optim.Adam(self.netD.parameters(), lr=lr)

    def train_epoch(self, loader, epoch):
        self.netG.train()
        self.netD.train()
        running = {"d_loss": 0.0, "g_loss": 0.0, "batches": 0}
        for data, target in loader:
            real_img = target
            z = data
            fake_img = self.netG(z)

            self.netD.zero_grad()
            real_out = self.netD(real_img).mean()
            fake_out = self.netD(fake_img.detach()).mean()
            d_loss = 1 - real_out + fake_out
            d_loss.backward()
            self.optimizerD.step()

            self.netG.zero_grad()
            fake_out = self.netD(fake_img).mean()
            g_loss = self.generator_criterion(fake_out, fake_img, real_img)
            g_loss.backward()
            self.optimizerG.step()

            running["d_loss"] += d_loss.item()
            running["g_loss"] += g_loss.item()
            running["batches"] += 1
        print(f"[{epoch}] Loss_D: {running['d_loss'] / running['batches']:.4f} "
              f"Loss_G: {running['g_loss'] / running['batches']:.4f}")


def make_loader(n=24, crop=16, upscale=2, batch_size=8):
    hr = torch.rand(n, 3, crop, crop)
    lr = F.interpolate(hr, scale_factor=1 / upscale, mode="bicubic", align_corners=False).clamp(0, 1)
    return DataLoader(TensorDataset(lr, hr), batch_size=batch_size, shuffle=True)


if __name__ == "__main__":
    trainer = SRGANTrainer()
    train_loader = make_loader()
    for epoch in range(1, 3):
        trainer.train_epoch(train_loader, epoch)
