"""DCGAN training loop (pytorch/examples dcgan/main.py structure) on toy data."""
import torch
import torch.nn as nn

from nets import NZ, Discriminator, Generator, weights_init
from utils import fake_labels, fake_mnist, make_noise, real_labels

opt = {"batch_size": 16, "n_epochs": 2, "batches": 3, "lr": 2e-4, "beta1": 0.5}

netG = Generator()
netG.apply(weights_init)
netD = Discriminator()
netD.apply(weights_init)
criterion = nn.BCELoss()

optimizerD = torch.optim.Adam(netD.parameters(), lr=opt["lr"], betas=(opt["beta1"], 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=opt["lr"], betas=(opt["beta1"], 0.999))

for epoch in range(opt["n_epochs"]):
    for i, data in enumerate(fake_mnist(opt["batches"], opt["batch_size"])):
        ############################
        # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
        ###########################
        netD.zero_grad()
        real_cpu = data[0]
        b_size = real_cpu.size(0)
        output = netD(real_cpu)
        errD_real = criterion(output, real_labels(b_size))
        errD_real.backward()
        D_x = output.mean().item()

        noise = make_noise(b_size, NZ)
        fake = netG(noise)
        output = netD(fake.detach())
        errD_fake = criterion(output, fake_labels(b_size))
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake
        optimizerD.step()

        ############################
        # (2) Update G network: maximize log(D(G(z)))
        ###########################
        netG.zero_grad()
        output = netD(fake)
        errG = criterion(output, real_labels(b_size))
        errG.backward()
        D_G_z2 = output.mean().item()
        optimizerG.step()

        print(f"[{epoch}][{i}] Loss_D {errD.item():.4f} Loss_G {errG.item():.4f} "
              f"D(x) {D_x:.4f} D(G(z)) {D_G_z1:.4f} / {D_G_z2:.4f}")
