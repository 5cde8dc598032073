import torch
import torch.nn as nn


def define_G(in_nc, out_nc, ngf=8):
    return nn.Sequential(
        nn.Conv2d(in_nc, ngf, 3, padding=1), nn.ReLU(True),
        nn.Conv2d(ngf, ngf, 3, padding=1), nn.ReLU(True),
        nn.Conv2d(ngf, out_nc, 3, padding=1), nn.Tanh(),
    )


def define_D(in_nc, ndf=8):
    # PatchGAN-style critic without normalisation (required for WGAN-GP)
    return nn.Sequential(
        nn.Conv2d(in_nc, ndf, 4, 2, 1), nn.LeakyReLU(0.2),
        nn.Conv2d(ndf, 1, 4, 1, 1),
    )


def cal_gradient_penalty(netD, real_data, fake_data, lambda_gp=10.0):
    alpha = torch.rand(real_data.shape[0], 1, 1, 1).expand_as(real_data)
    interpolatesv = alpha * real_data + (1 - alpha) * fake_data
    interpolatesv.requires_grad_(True)
    disc_interpolates = netD(interpolatesv)
    gradients = torch.autograd.grad(outputs=disc_interpolates, inputs=interpolatesv,
                                    grad_outputs=torch.ones_like(disc_interpolates),
                                    create_graph=True, retain_graph=True)[0]
    gradients = gradients.view(real_data.size(0), -1)
    return ((gradients + 1e-16).norm(2, dim=1) - 1).pow(2).mean() * lambda_gp
