"""DCGAN-style training loop (pytorch/examples dcgan layout) on toy vectors."""
import torch
import torch.nn as nn

torch.manual_seed(0)
nz, nx, b_size = 8, 16, 32
real_label, fake_label = 1.0, 0.0

netG = nn.Sequential(nn.Linear(nz, 32), nn.ReLU(True), nn.Linear(32, nx), nn.Tanh())
netD = nn.Sequential(nn.Linear(nx, 32), nn.LeakyReLU(0.2, inplace=True), nn.Linear(32, 1), nn.Sigmoid())
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
fixed_noise = torch.randn(4, nz)
dataset = torch.tanh(torch.randn(128, nx) * 0.5 + 0.3)

G_losses, D_losses, samples = [], [], []
for epoch in range(2):
    for i in range(0, len(dataset), b_size):
        # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
        netD.zero_grad()
        real_cpu = dataset[i:i + b_size]
        label = torch.full((real_cpu.size(0),), real_label)
        output = netD(real_cpu).view(-1)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()

        noise = torch.randn(real_cpu.size(0), nz)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach()).view(-1)
        errD_fake = criterion(output, label)
        errD_fake.backward()
        errD = errD_real + errD_fake
        optimizerD.step()

        # (2) Update G network: maximize log(D(G(z)))
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake).view(-1)
        errG = criterion(output, label)
        errG.backward()
        D_G_z2 = output.mean().item()
        optimizerG.step()

        G_losses.append(errG.item())
        D_losses.append(errD.item())
    with torch.no_grad():
        samples.append(netG(fixed_noise).detach().cpu())
    print(epoch, D_losses[-1], G_losses[-1], D_x, D_G_z2)
