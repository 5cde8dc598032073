import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def define_G():
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.InstanceNorm2d(16), nn.ReLU(True),
        nn.Conv2d(16, 16, 3, padding=1), nn.InstanceNorm2d(16), nn.ReLU(True),
        nn.Conv2d(16, 3, 3, padding=1), nn.Tanh())


def define_D():
    return nn.Sequential(
        nn.Conv2d(3, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2, True),
        nn.Conv2d(16, 1, 3, padding=1))


class CycleGANModel:
    """CycleGAN with an extra pair of discriminators working on half-resolution images."""

    def __init__(self, lambda_A=10.0, lambda_B=10.0):
        self.netG_A, self.netG_B = define_G(), define_G()
        self.netD_A, self.netD_B = define_D(), define_D()
        self.netD_A2, self.netD_B2 = define_D(), define_D()
        self.lambda_A, self.lambda_B = lambda_A, lambda_B
        self.criterionGAN = nn.MSELoss()
        self.criterionCycle = nn.L1Loss()
        self.optimizer_G = torch.optim.Adam(itertools.chain(self.netG_A.parameters(), self.netG_B.parameters()),
                                            lr=2e-4, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(itertools.chain(self.netD_A.parameters(), self.netD_B.parameters(),
                                                            self.netD_A2.parameters(), self.netD_B2.parameters()),
                                            lr=2e-4, betas=(0.5, 0.999))

    def gan_loss(self, pred, target_is_real):
        target = torch.ones_like(pred) if target_is_real else torch.zeros_like(pred)
        return self.criterionGAN(pred, target)

    def set_input(self, real_A, real_B):
        self.real_A, self.real_B = real_A, real_B

    def forward(self):
        self.fake_B = self.netG_A(self.real_A)
        self.rec_A = self.netG_B(self.fake_B)
        self.fake_A = self.netG_B(self.real_B)
        self.rec_B = self.netG_A(self.fake_A)
        self.fake_B_small = F.avg_pool2d(self.fake_B, 2)
        self.fake_A_small = F.avg_pool2d(self.fake_A, 2)

    def set_requires_grad(self, nets, requires_grad):
        for net in nets:
            for p in net.parameters():
                p.requires_grad = requires_grad

    def backward_G(self):
        loss_G_A = self.gan_loss(self.netD_A(self.fake_B), True) + self.gan_loss(self.netD_A2(self.fake_B_small), True)
        loss_G_B = self.gan_loss(self.netD_B(self.fake_A), True) + self.gan_loss(self.netD_B2(self.fake_A_small), True)
        loss_cycle_A = self.criterionCycle(self.rec_A, self.real_A) * self.lambda_A
        loss_cycle_B = self.criterionCycle(self.rec_B, self.real_B) * self.lambda_B
        self.loss_G = loss_G_A + loss_G_B + loss_cycle_A + loss_cycle_B
        self.loss_G.backward()

    def backward_D_basic(self, netD, real, fake):
        loss_D_real = self.gan_loss(netD(real), True)
        loss_D_fake = self.gan_loss(netD(fake.detach()), False)
        loss_D = (loss_D_real + loss_D_fake) * 0.5
        loss_D.backward()
        return loss_D

    def backward_D_small(self, netD, real, fake_small):
        real_small = F.avg_pool2d(real, 2)
        loss_D = (self.gan_loss(netD(real_small), True) + self.gan_loss(netD(fake_small), False)) * 0.5
        loss_D.backward()
        return loss_D

    def optimize_parameters(self):
        self.forward()
        nets_D = [self.netD_A, self.netD_B, self.netD_A2, self.netD_B2]
        self.set_requires_grad(nets_D, False)
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()
        self.set_requires_grad(nets_D, True)
        self.optimizer_D.zero_grad()
        self.loss_D_A = self.backward_D_basic(self.netD_A, self.real_B, self.fake_B)
        self.loss_D_B = self.backward_D_basic(self.netD_B, self.real_A, self.fake_A)
        self.loss_D_A2 = self.backward_D_small(self.netD_A2, self.real_B, self.fake_B_small)
        self.loss_D_B2 = self.backward_D_small(self.netD_B2, self.real_A, self.fake_A_small)
        self.optimizer_D.step()


model = CycleGANModel()
for epoch in range(3):
    for i in range(2):
        model.set_input(torch.randn(2, 3, 16, 16), torch.randn(2, 3, 16, 16))
        model.optimize_parameters()
    print('epoch %d  G %.3f  D_A %.3f  D_A2 %.3f' % (epoch, model.loss_G.item(), model.loss_D_A.item(), model.loss_D_A2.item()))
