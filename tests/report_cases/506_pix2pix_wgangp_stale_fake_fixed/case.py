import torch
import torch.nn as nn

from networks import cal_gradient_penalty, define_D, define_G

torch.manual_seed(0)
N_CRITIC, L1_W = 3, 100.0

netG = define_G(3, 3)
netD = define_D(6)
optimizer_G = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
criterionL1 = nn.L1Loss()

for it in range(2):
    real_A = torch.randn(2, 3, 16, 16)
    real_B = torch.randn(2, 3, 16, 16)
    fake_B = netG(real_A)
    fake_AB = torch.cat((real_A, fake_B), 1)
    real_AB = torch.cat((real_A, real_B), 1)

    # update D several times before G (WGAN-GP)
    for _ in range(N_CRITIC):
        optimizer_D.zero_grad()
        loss_D_fake = netD(fake_AB.detach()).mean()
        loss_D_real = -netD(real_AB).mean()
        gradient_penalty = cal_gradient_penalty(netD, real_AB, fake_AB.detach())
        loss_D = loss_D_fake + loss_D_real + gradient_penalty
        loss_D.backward()
        optimizer_D.step()

    # update G
    optimizer_G.zero_grad()
    loss_G_GAN = -netD(fake_AB).mean()
    loss_G_L1 = criterionL1(fake_B, real_B) * L1_W
    loss_G = loss_G_GAN + loss_G_L1
    loss_G.backward()
    optimizer_G.step()
    print(it, round(loss_D.item(), 3), round(loss_G.item(), 3))
