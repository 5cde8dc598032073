import itertools
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)


def small_net(out_act=None):
    layers = [nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1)]
    return nn.Sequential(*(layers + ([out_act] if out_act else [])))


def small_disc():
    return nn.Sequential(nn.Conv2d(3, 8, 4, stride=2, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 3, padding=1))


class ImagePool:
    def __init__(self, pool_size=4):
        self.pool_size, self.images = pool_size, []

    def query(self, images):
        out = []
        for image in images:
            image = image.data.unsqueeze(0)
            if len(self.images) < self.pool_size:
                self.images.append(image)
                out.append(image)
            elif random.random() > 0.5:
                i = random.randint(0, self.pool_size - 1)
                out.append(self.images[i].clone())
                self.images[i] = image
            else:
                out.append(image)
        return torch.cat(out, 0)


class CycleGANModel:
    def __init__(self, lambda_A=10.0, lambda_B=10.0, lr=2e-4):
        self.netG_A, self.netG_B = small_net(nn.Tanh()), small_net(nn.Tanh())
        self.netD_A, self.netD_B = small_disc(), small_disc()
        self.fake_A_pool, self.fake_B_pool = ImagePool(), ImagePool()
        self.criterionGAN, self.criterionCycle = nn.MSELoss(), nn.L1Loss()
        self.lambda_A, self.lambda_B = lambda_A, lambda_B
        self.optimizer_G = torch.optim.Adam(itertools.chain(self.netG_A.parameters(), self.netG_B.parameters()),
                                            lr=lr, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(itertools.chain(self.netD_A.parameters(), self.netD_B.parameters()),
                                            lr=lr, betas=(0.5, 0.999))

    @staticmethod
    def set_requires_grad(nets, requires_grad=False):
        for net in nets:
            for p in net.parameters():
                p.requires_grad = requires_grad

    def gan_loss(self, pred, target_is_real):
        return self.criterionGAN(pred, torch.full_like(pred, 1.0 if target_is_real else 0.0))

    def forward(self):
        self.fake_B = self.netG_A(self.real_A)
        self.rec_A = self.netG_B(self.fake_B)
        self.fake_A = self.netG_B(self.real_B)
        self.rec_B = self.netG_A(self.fake_A)

    def backward_D_basic(self, netD, real, fake):
        loss_D = (self.gan_loss(netD(real), True) + self.gan_loss(netD(fake.detach()), False)) * 0.5
        loss_D.backward()
        return loss_D

    def backward_G(self):
        self.loss_G_A = self.gan_loss(self.netD_A(self.fake_B), True)
        self.loss_G_B = self.gan_loss(self.netD_B(self.fake_A), True)
        self.loss_cycle_A = self.criterionCycle(self.rec_A, self.real_A) * self.lambda_A
        self.loss_cycle_B = self.criterionCycle(self.rec_B, self.real_B) * self.lambda_B
        self.loss_G = self.loss_G_A + self.loss_G_B + self.loss_cycle_A + self.loss_cycle_B
        self.loss_G.backward()

    def optimize_parameters(self, real_A, real_B):
        self.real_A, self.real_B = real_A, real_B
        self.forward()
        # G_A and G_B first
        self.set_requires_grad([self.netD_A, self.netD_B], False)
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()
        # then D_A and D_B, on pooled (detached) fakes
        self.set_requires_grad([self.netD_A, self.netD_B], True)
        self.optimizer_D.zero_grad()
        self.loss_D_A = self.backward_D_basic(self.netD_A, self.real_B, self.fake_B_pool.query(self.fake_B))
        self.loss_D_B = self.backward_D_basic(self.netD_B, self.real_A, self.fake_A_pool.query(self.fake_A))
        self.optimizer_D.step()


model = CycleGANModel()
for it in range(4):
    model.optimize_parameters(torch.randn(2, 3, 8, 8), torch.randn(2, 3, 8, 8))
    print(it, round(model.loss_G.item(), 4), round(model.loss_D_A.item(), 4))
