"""BiGAN (Donahue et al.) for anomaly detection: a generator G(z), an encoder E(x) and a
discriminator D(x, z) over joint pairs, trained by a TrainerBiGAN class."""
import torch
import torch.nn as nn
from torch import optim

torch.manual_seed(0)
LATENT, DIM = 4, 16


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LATENT, 32), nn.LeakyReLU(0.1), nn.Linear(32, DIM), nn.Tanh())

    def forward(self, z):
        return self.net(z)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(DIM, 32), nn.LeakyReLU(0.1), nn.Linear(32, LATENT))

    def forward(self, x):
        return self.net(x)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(DIM + LATENT, 32), nn.LeakyReLU(0.1), nn.Linear(32, 1), nn.Sigmoid())

    def forward(self, x, z):
        return self.net(torch.cat([x, z], dim=1))


class TrainerBiGAN:
    def __init__(self, data, num_epochs=3, lr=2e-4):
        self.train_loader = data
        self.num_epochs = num_epochs
        self.lr = lr

    def train(self):
        self.G, self.E, self.D = Generator(), Encoder(), Discriminator()
        optimizer_ge = optim.Adam(list(self.G.parameters()) + list(self.E.parameters()), lr=self.lr)
        optimizer_d = optim.Adam(self.D.parameters(), lr=self.lr)
        criterion = nn.BCELoss()
        for epoch in range(self.num_epochs):
            for x in self.train_loader:
                y_true = torch.ones((x.size(0), 1))
                y_fake = torch.zeros((x.size(0), 1))
                noise1 = torch.randn_like(x) * 0.1 * (self.num_epochs - epoch) / self.num_epochs
                noise2 = torch.randn_like(x) * 0.1 * (self.num_epochs - epoch) / self.num_epochs

                optimizer_d.zero_grad()
                optimizer_ge.zero_grad()

                z_fake = torch.randn((x.size(0), LATENT))
                x_fake = self.G(z_fake)
                z_true = self.E(x)

                out_true = self.D(x + noise1, z_true)
                out_fake = self.D(x_fake + noise2, z_fake)

                loss_d = criterion(out_true, y_true) + criterion(out_fake, y_fake)
                loss_d.backward()
                optimizer_d.step()

                optimizer_ge.zero_grad()
                z_fake = torch.randn((x.size(0), LATENT))
                x_fake = self.G(z_fake)
                z_true = self.E(x)
                out_true = self.D(x + noise1, z_true)
                out_fake = self.D(x_fake + noise2, z_fake)
                loss_ge = criterion(out_fake, y_true) + criterion(out_true, y_fake)
                loss_ge.backward()
                optimizer_ge.step()
            print(f"Training... Epoch: {epoch}, Discriminator Loss: {loss_d.item():.3f}, Generator Loss: {loss_ge.item():.3f}")


if __name__ == "__main__":
    data = [torch.rand(8, DIM) * 2 - 1 for _ in range(4)]
    TrainerBiGAN(data).train()
