"""Adversarial + perceptual losses for the deblurring GAN."""
import torch
import torch.nn as nn


class ContentLoss:
    def __init__(self, feature_net):
        self.feature_net = feature_net
        self.criterion = nn.MSELoss()

    def get_loss(self, fake, real):
        f_fake = self.feature_net(fake)
        f_real = self.feature_net(real).detach()
        return self.criterion(f_fake, f_real)


class DiscLossLS:
    def __init__(self):
        self.criterion = nn.MSELoss()

    def get_g_loss(self, net, real_a, fake_b):
        pred_fake = net(torch.cat((real_a, fake_b), 1))
        return self.criterion(pred_fake, torch.ones_like(pred_fake))

    def get_loss(self, net, real_a, fake_b, real_b):
        # stop backprop to the generator by detaching fake_b
        pred_fake = net(torch.cat((real_a, fake_b), 1).detach())
        loss_fake = self.criterion(pred_fake, torch.zeros_like(pred_fake))
        pred_real = net(torch.cat((real_a, real_b), 1))
        loss_real = self.criterion(pred_real, torch.ones_like(pred_real))
        return (loss_fake + loss_real) * 0.5


class DiscLossWGANGP(DiscLossLS):
    def __init__(self, lam=10.0):
        super().__init__()
        self.lam = lam

    def get_g_loss(self, net, real_a, fake_b):
        return -net(torch.cat((real_a, fake_b), 1)).mean()

    def calc_gradient_penalty(self, net, real_data, fake_data):
        alpha = torch.rand(real_data.size(0), 1, 1, 1).expand_as(real_data)
        interpolates = alpha * real_data + (1 - alpha) * fake_data
        if not interpolates.requires_grad:
            interpolates.requires_grad_(True)
        disc_interpolates = net(interpolates)
        gradients = torch.autograd.grad(
            outputs=disc_interpolates, inputs=interpolates,
            grad_outputs=torch.ones_like(disc_interpolates),
            create_graph=True, retain_graph=True)[0]
        return ((gradients.flatten(1).norm(2, dim=1) - 1) ** 2).mean() * self.lam

    def get_loss(self, net, real_a, fake_b, real_b):
        fake_ab = torch.cat((real_a, fake_b), 1)
        real_ab = torch.cat((real_a, real_b), 1)
        loss_d = net(fake_ab.detach()).mean() - net(real_ab).mean()
        return loss_d + self.calc_gradient_penalty(net, real_ab, fake_ab)
