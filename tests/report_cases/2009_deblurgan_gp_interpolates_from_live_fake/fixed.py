"""DeblurGAN-style conditional GAN with a WGAN-GP critic updated several times per generator step."""
from collections import OrderedDict

import torch
import torch.autograd as autograd
import torch.nn as nn


class Options:
    gan_type = 'wgan-gp'
    lr = 1e-4
    beta1 = 0.5
    lambda_A = 100.0
    batchSize = 2
    fineSize = 16
    niter = 2


class ResnetGenerator(nn.Module):
    def __init__(self, ngf=8):
        super().__init__()
        self.model = nn.Sequential(
            nn.Conv2d(3, ngf, 3, padding=1), nn.InstanceNorm2d(ngf), nn.ReLU(True),
            nn.Conv2d(ngf, ngf, 3, padding=1), nn.InstanceNorm2d(ngf), nn.ReLU(True),
            nn.Conv2d(ngf, 3, 3, padding=1), nn.Tanh())

    def forward(self, input):
        return torch.clamp(input + self.model(input), min=-1, max=1)


class NLayerDiscriminator(nn.Module):
    def __init__(self, ndf=8):
        super().__init__()
        self.model = nn.Sequential(
            nn.Conv2d(3, ndf, 4, stride=2, padding=1), nn.LeakyReLU(0.2, True),
            nn.Conv2d(ndf, ndf * 2, 4, stride=2, padding=1), nn.LeakyReLU(0.2, True),
            nn.Conv2d(ndf * 2, 1, 4, stride=1, padding=1))

    def forward(self, input):
        return self.model(input)


class DiscLossWGANGP:
    def __init__(self):
        self.LAMBDA = 10

    def name(self):
        return 'DiscLossWGAN-GP'

    def get_g_loss(self, net, realA, fakeB):
        self.D_fake = net.forward(fakeB)
        return -self.D_fake.mean()

    def calc_gradient_penalty(self, netD, real_data, fake_data):
        alpha = torch.rand(real_data.size(0), 1, 1, 1).expand(real_data.size())
        interpolates = alpha * real_data + ((1 - alpha) * fake_data)
        interpolates.requires_grad_(True)
        disc_interpolates = netD.forward(interpolates)
        gradients = autograd.grad(outputs=disc_interpolates, inputs=interpolates,
                                  grad_outputs=torch.ones(disc_interpolates.size()),
                                  create_graph=True, retain_graph=True, only_inputs=True)[0]
        gradient_penalty = ((gradients.view(gradients.size(0), -1).norm(2, dim=1) - 1) ** 2).mean() * self.LAMBDA
        return gradient_penalty

    def get_loss(self, net, realA, fakeB, realB):
        self.D_fake = net.forward(fakeB.detach())
        self.D_fake = self.D_fake.mean()
        self.D_real = net.forward(realB)
        self.D_real = self.D_real.mean()
        self.loss_D = self.D_fake - self.D_real
        gradient_penalty = self.calc_gradient_penalty(net, realB.data, fakeB.detach())
        return self.loss_D + gradient_penalty


class ConditionalGAN:
    def name(self):
        return 'ConditionalGANModel'

    def __init__(self, opt):
        self.opt = opt
        self.netG = ResnetGenerator()
        self.netD = NLayerDiscriminator()
        self.criticUpdates = 5 if opt.gan_type == 'wgan-gp' else 1
        self.discLoss = DiscLossWGANGP()
        self.contentLoss = nn.L1Loss()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))

    def set_input(self, input):
        self.input_A = input['A']
        self.input_B = input['B']

    def forward(self):
        self.real_A = self.input_A
        self.fake_B = self.netG.forward(self.real_A)
        self.real_B = self.input_B

    def backward_D(self):
        self.loss_D = self.discLoss.get_loss(self.netD, self.real_A, self.fake_B, self.real_B)
        self.loss_D.backward()

    def backward_G(self):
        self.loss_G_GAN = self.discLoss.get_g_loss(self.netD, self.real_A, self.fake_B)
        self.loss_G_Content = self.contentLoss(self.fake_B, self.real_B) * self.opt.lambda_A
        self.loss_G = self.loss_G_GAN + self.loss_G_Content
        self.loss_G.backward()

    def optimize_parameters(self):
        self.forward()
        for iter_d in range(self.criticUpdates):
            self.optimizer_D.zero_grad()
            self.backward_D()
            self.optimizer_D.step()
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()

    def get_current_errors(self):
        return OrderedDict([('G_GAN', self.loss_G_GAN.item()),
                            ('G_L1', self.loss_G_Content.item()),
                            ('D_real+fake', self.loss_D.item())])


if __name__ == '__main__':
    torch.manual_seed(0)
    opt = Options()
    model = ConditionalGAN(opt)
    for epoch in range(opt.niter):
        for i in range(2):
            sharp = torch.rand(opt.batchSize, 3, opt.fineSize, opt.fineSize) * 2 - 1
            blurred = nn.functional.avg_pool2d(sharp, 3, stride=1, padding=1)
            model.set_input({'A': blurred, 'B': sharp})
            model.optimize_parameters()
        print(epoch, model.get_current_errors())
