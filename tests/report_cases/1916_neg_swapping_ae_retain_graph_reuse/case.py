"""Swapping-autoencoder-style training step that builds the encoder/generator graph once
and reuses it for the discriminator step and the generator step (retain_graph=True on the
discriminator backward) instead of running the encoder and generator twice.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.structure = nn.Linear(dim, 8)
        self.texture = nn.Linear(dim, 4)

    def forward(self, img):
        return self.structure(img), self.texture(img)


class Generator(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, dim))

    def forward(self, structure, texture):
        return self.net(torch.cat([structure, texture], dim=1))


encoder, generator = Encoder(), Generator()
discriminator = nn.Sequential(nn.Linear(24, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
g_optim = torch.optim.Adam(list(encoder.parameters()) + list(generator.parameters()), lr=2e-3)
d_optim = torch.optim.Adam(discriminator.parameters(), lr=2e-3)

data = torch.randn(64, 24)
for i in range(4):
    real_img = data[torch.randint(0, 64, (8,))]
    real_img1, real_img2 = real_img.chunk(2, dim=0)

    structure1, texture1 = encoder(real_img1)
    _, texture2 = encoder(real_img2)
    fake_img1 = generator(structure1, texture1)
    fake_img2 = generator(structure1, texture2)

    # discriminator step, keeping the encoder/generator graph for the generator step
    fake_pred = discriminator(torch.cat((fake_img1, fake_img2), 0))
    real_pred = discriminator(real_img)
    d_loss = F.softplus(fake_pred).mean() + F.softplus(-real_pred).mean()
    d_optim.zero_grad()
    d_loss.backward(retain_graph=True)
    d_optim.step()

    # generator step: the discriminator is run again with its updated weights
    g_optim.zero_grad()
    recon = F.l1_loss(fake_img1, real_img1)
    fake_pred = discriminator(torch.cat((fake_img1, fake_img2), 0))
    g_loss = recon + F.softplus(-fake_pred).mean()
    g_loss.backward()
    g_optim.step()
    print(i, round(d_loss.item(), 4), round(g_loss.item(), 4))
