"""DCGAN on 16x16 single-channel 'sprites' (random blobs), following the
usual book-chapter training loop: update D every iteration on real and fake
images, then update G to fool D."""
import torch
import torch.nn as nn

torch.manual_seed(0)
NZ, NGF, NDF = 16, 16, 16


class NetG(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(NZ, NGF * 2, 4, 1, 0, bias=False), nn.BatchNorm2d(NGF * 2), nn.ReLU(True),
            nn.ConvTranspose2d(NGF * 2, NGF, 4, 2, 1, bias=False), nn.BatchNorm2d(NGF), nn.ReLU(True),
            nn.ConvTranspose2d(NGF, 1, 4, 2, 1, bias=False), nn.Tanh(),
        )

    def forward(self, z):
        return self.main(z)


class NetD(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(1, NDF, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(NDF, NDF * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(NDF * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(NDF * 2, 1, 4, 1, 0, bias=False), nn.Sigmoid(),
        )

    def forward(self, x):
        return self.main(x).view(-1)


def real_sprites(n):
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    cx, cy = torch.rand(n, 1, 1) * 8 + 4, torch.rand(n, 1, 1) * 8 + 4
    blob = torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 8.0)
    return (blob * 2 - 1).unsqueeze(1)


def train(epochs=12, batch_size=32):
    netg, netd = NetG(), NetD()
    optimizer_g = torch.optim.Adam(netg.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optimizer_d = torch.optim.Adam(netd.parameters(), lr=2e-4, betas=(0.5, 0.999))
    criterion = nn.BCELoss()
    true_labels, fake_labels = torch.ones(batch_size), torch.zeros(batch_size)
    for epoch in range(epochs):
        real_img = real_sprites(batch_size)
        noises = torch.randn(batch_size, NZ, 1, 1)

        optimizer_d.zero_grad()
        error_d_real = criterion(netd(real_img), true_labels)
        error_d_real.backward()
        fake_img = netg(noises)
        error_d_fake = criterion(netd(fake_img), fake_labels)
        error_d_fake.backward()
        optimizer_d.step()

        optimizer_g.zero_grad()
        error_g = criterion(netd(fake_img), true_labels)
        error_g.backward()
        optimizer_g.step()
        if epoch % 4 == 0:
            print(f"epoch {epoch}: d {(error_d_real + error_d_fake).item():.3f} g {error_g.item():.3f}")


if __name__ == "__main__":
    train()
