"""Vanilla GAN on (fake) MNIST-sized vectors, written like a beginner GAN tutorial notebook.

Both networks use LeakyReLU(inplace=True) followed by Dropout(inplace=True) to save memory.
"""
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self, latent_dim=16, img_dim=64):
        super(Generator, self).__init__()
        self.main = nn.Sequential(
            nn.Linear(latent_dim, 128),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(128, 128),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(128, img_dim),
            nn.Tanh(),
        )

    def forward(self, inputs):
        return self.main(inputs)


class Discriminator(nn.Module):
    def __init__(self, img_dim=64):
        super(Discriminator, self).__init__()
        self.main = nn.Sequential(
            nn.Linear(img_dim, 128),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Dropout(inplace=True),
            nn.Linear(128, 64),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Dropout(inplace=True),
            nn.Linear(64, 1),
            nn.Sigmoid(),
        )

    def forward(self, inputs):
        return self.main(inputs).view(-1)


G = Generator()
D = Discriminator()
criterion = nn.BCELoss()
G_optimizer = optim.Adam(G.parameters(), lr=0.0002, betas=(0.5, 0.999))
D_optimizer = optim.Adam(D.parameters(), lr=0.0002, betas=(0.5, 0.999))

dataset = torch.rand(80, 64) * 2 - 1
batch_size = 16

for epoch in range(2):
    for i in range(0, 48, batch_size):
        real_data = dataset[i:i + batch_size]
        target_real = torch.ones(batch_size)
        target_fake = torch.zeros(batch_size)

        # Train the discriminator
        D_result_from_real = D(real_data)
        D_loss_real = criterion(D_result_from_real, target_real)
        z = torch.randn(batch_size, 16)
        fake_data = G(z)
        D_result_from_fake = D(fake_data.detach())
        D_loss_fake = criterion(D_result_from_fake, target_fake)
        D_loss = D_loss_real + D_loss_fake
        D.zero_grad()
        D_loss.backward()
        D_optimizer.step()

        # Train the generator
        z = torch.randn(batch_size, 16)
        fake_data = G(z)
        D_result_from_fake = D(fake_data)
        G_loss = criterion(D_result_from_fake, target_real)
        G.zero_grad()
        G_loss.backward()
        G_optimizer.step()

    print("epoch", epoch, "D_loss", D_loss.item(), "G_loss", G_loss.item())
