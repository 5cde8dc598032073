"""Vanilla GAN on a 2-D ring of 8 Gaussians."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)

nz = 8
batch_size = 64
n_iters = 60
lr = 2e-4


def sample_ring(n, n_modes=8, radius=2.0, std=0.05):
    k = torch.randint(n_modes, (n,))
    angle = 2 * math.pi * k.float() / n_modes
    centers = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    return centers + std * torch.randn(n, 2)


netG = nn.Sequential(
    nn.Linear(nz, 64), nn.ReLU(),
    nn.Linear(64, 64), nn.ReLU(),
    nn.Linear(64, 2),
)
netD = nn.Sequential(
    nn.Linear(2, 64), nn.LeakyReLU(0.2),
    nn.Linear(64, 64), nn.LeakyReLU(0.2),
    nn.Linear(64, 1), nn.Sigmoid(),
)

criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=lr, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=lr, betas=(0.5, 0.999))

real_label = torch.ones(batch_size, 1)
fake_label = torch.zeros(batch_size, 1)

for it in range(n_iters):
    real = sample_ring(batch_size)
    noise = torch.randn(batch_size, nz)
    fake = netG(noise)

    ############################
    # (1) Update D: maximize log(D(x)) + log(1 - D(G(z)))
    ############################
    netD.zero_grad()
    errD_real = criterion(netD(real), real_label)
    errD_fake = criterion(netD(fake.detach()), fake_label)
    errD = errD_real + errD_fake
    errD.backward()
    optimizerD.step()

    ############################
    # (2) Update G: maximize log(D(G(z)))
    ############################
    netG.zero_grad()
    # fresh D forward on the non-detached fake, after D's update: gradients reach G
    output = netD(fake)
    errG = criterion(output, real_label)
    errG.backward()
    optimizerG.step()

    if it % 20 == 0:
        print(f"[{it}/{n_iters}] Loss_D: {errD.item():.4f} Loss_G: {errG.item():.4f}")

with torch.no_grad():
    samples = netG(torch.randn(512, nz))
print("mean radius of generated samples:", samples.norm(dim=1).mean().item())
