"""Adversarial motion retargeting: generator step first, then discriminator step."""
import torch

from model import Retargeter, PatchDiscriminator
from losses import GANLoss, backward_D_basic, backward_G


class MotionGANModel:
    def __init__(self):
        self.netG = Retargeter()
        self.netD = PatchDiscriminator()
        self.criterion = GANLoss()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=2e-4)
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=2e-4)

    def set_requires_grad(self, net, flag):
        for p in net.parameters():
            p.requires_grad_(flag)

    def optimize_parameters(self, source, real):
        fake = self.netG(source)
        self.set_requires_grad(self.netD, False)
        self.optimizer_G.zero_grad()
        loss_G = backward_G(self.netD, fake, source, self.criterion)
        self.optimizer_G.step()

        self.set_requires_grad(self.netD, True)
        self.optimizer_D.zero_grad()
        loss_D = backward_D_basic(self.netD, real, fake, self.criterion)
        self.optimizer_D.step()
        return loss_G.item(), loss_D.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    gan = MotionGANModel()
    for it in range(3):
        src, tgt = torch.randn(4, 9, 15), torch.randn(4, 9, 15)
        print(it, gan.optimize_parameters(src, tgt))
