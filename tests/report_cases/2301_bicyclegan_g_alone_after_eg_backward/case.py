"""BicycleGAN training step (cVAE-GAN + cLR-GAN) on random paired images.

Entry point; networks live in networks.py.
"""
import argparse

import torch
import torch.nn as nn

from networks import G_Unet_add_input, E_ResNet, D_NLayers, GANLoss


class BiCycleGANModel:
    def __init__(self, opt):
        self.opt = opt
        self.netG = G_Unet_add_input(nz=opt.nz)
        self.netE = E_ResNet(nz=opt.nz)
        self.netD = D_NLayers()
        self.netD2 = D_NLayers()
        self.criterionGAN = GANLoss()
        self.criterionL1 = nn.L1Loss()
        self.criterionZ = nn.L1Loss()
        betas = (0.5, 0.999)
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=opt.lr, betas=betas)
        self.optimizer_E = torch.optim.Adam(self.netE.parameters(), lr=opt.lr, betas=betas)
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=opt.lr, betas=betas)
        self.optimizer_D2 = torch.optim.Adam(self.netD2.parameters(), lr=opt.lr, betas=betas)

    @staticmethod
    def set_requires_grad(nets, requires_grad):
        for net in nets:
            for p in net.parameters():
                p.requires_grad = requires_grad

    def set_input(self, real_A, real_B):
        self.real_A_encoded, self.real_B_encoded = real_A, real_B

    def get_z_random(self, batch_size, nz):
        return torch.randn(batch_size, nz)

    def forward(self):
        self.mu, self.logvar = self.netE(self.real_B_encoded)
        std = self.logvar.mul(0.5).exp()
        self.z_encoded = torch.randn_like(std) * std + self.mu
        self.z_random = self.get_z_random(self.real_A_encoded.size(0), self.opt.nz)
        self.fake_B_encoded = self.netG(self.real_A_encoded, self.z_encoded)
        self.fake_B_random = self.netG(self.real_A_encoded, self.z_random)
        # cLR-GAN: recover the random code from the generated image
        self.mu2, logvar2 = self.netE(self.fake_B_random)

    def backward_D(self, netD, real, fake):
        pred_fake = netD(fake.detach())
        pred_real = netD(real)
        loss_D = self.criterionGAN(pred_fake, False) + self.criterionGAN(pred_real, True)
        loss_D.backward()
        return loss_D

    def backward_G_GAN(self, fake, netD, ll):
        return self.criterionGAN(netD(fake), True) * ll

    def backward_EG(self):
        self.loss_G_GAN = self.backward_G_GAN(self.fake_B_encoded, self.netD, self.opt.lambda_GAN)
        self.loss_G_GAN2 = self.backward_G_GAN(self.fake_B_random, self.netD2, self.opt.lambda_GAN2)
        self.loss_kl = torch.sum(1 + self.logvar - self.mu.pow(2) - self.logvar.exp()) * (-0.5 * self.opt.lambda_kl)
        self.loss_G_L1 = self.criterionL1(self.fake_B_encoded, self.real_B_encoded) * self.opt.lambda_L1
        self.loss_G = self.loss_G_GAN + self.loss_G_GAN2 + self.loss_G_L1 + self.loss_kl
        self.loss_G.backward()

    def backward_G_alone(self):
        self.loss_z_L1 = self.criterionZ(self.mu2, self.z_random) * self.opt.lambda_z
        self.loss_z_L1.backward()

    def update_D(self):
        self.set_requires_grad([self.netD, self.netD2], True)
        self.optimizer_D.zero_grad()
        self.backward_D(self.netD, self.real_B_encoded, self.fake_B_encoded)
        self.optimizer_D.step()
        self.optimizer_D2.zero_grad()
        self.backward_D(self.netD2, self.real_B_encoded, self.fake_B_random)
        self.optimizer_D2.step()

    def update_G_and_E(self):
        self.set_requires_grad([self.netD, self.netD2], False)
        self.optimizer_E.zero_grad()
        self.optimizer_G.zero_grad()
        self.backward_EG()
        if self.opt.lambda_z > 0.0:
            self.set_requires_grad([self.netE], False)
            self.backward_G_alone()
            self.set_requires_grad([self.netE], True)
        self.optimizer_E.step()
        self.optimizer_G.step()

    def optimize_parameters(self):
        self.forward()
        self.update_G_and_E()
        self.update_D()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nz", type=int, default=8)
    parser.add_argument("--lr", type=float, default=2e-4)
    parser.add_argument("--lambda_GAN", type=float, default=1.0)
    parser.add_argument("--lambda_GAN2", type=float, default=1.0)
    parser.add_argument("--lambda_kl", type=float, default=0.01)
    parser.add_argument("--lambda_L1", type=float, default=10.0)
    parser.add_argument("--lambda_z", type=float, default=0.5)
    parser.add_argument("--iters", type=int, default=5)
    opt = parser.parse_args()

    torch.manual_seed(0)
    model = BiCycleGANModel(opt)
    for it in range(opt.iters):
        real_A = torch.randn(4, 3, 16, 16)
        real_B = torch.randn(4, 3, 16, 16)
        model.set_input(real_A, real_B)
        model.optimize_parameters()
        print(f"iter {it}: G {model.loss_G.item():.3f} z_L1 {model.loss_z_L1.item():.3f}")


if __name__ == "__main__":
    main()
