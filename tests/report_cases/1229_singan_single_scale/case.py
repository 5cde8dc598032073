"""Single-scale patch GAN trained on one image with a WGAN-GP critic (SinGAN-style loop)."""
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.optim as optim


class ConvBlock(nn.Sequential):
    def __init__(self, in_ch, out_ch, ker=3, padd=1):
        super().__init__()
        self.add_module("conv", nn.Conv2d(in_ch, out_ch, ker, 1, padd))
        self.add_module("norm", nn.BatchNorm2d(out_ch))
        self.add_module("LeakyRelu", nn.LeakyReLU(0.2, inplace=True))


class WDiscriminator(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.head = ConvBlock(opt.nc_im, opt.nfc)
        self.body = nn.Sequential(*[ConvBlock(opt.nfc, opt.nfc) for _ in range(opt.num_layer - 2)])
        self.tail = nn.Conv2d(opt.nfc, 1, 3, 1, 1)

    def forward(self, x):
        return self.tail(self.body(self.head(x)))


class GeneratorConcatSkip2CleanAdd(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.head = ConvBlock(opt.nc_im, opt.nfc)
        self.body = nn.Sequential(*[ConvBlock(opt.nfc, opt.nfc) for _ in range(opt.num_layer - 2)])
        self.tail = nn.Sequential(nn.Conv2d(opt.nfc, opt.nc_im, 3, 1, 1), nn.Tanh())

    def forward(self, x, y):
        return self.tail(self.body(self.head(x))) + y


def calc_gradient_penalty(netD, real_data, fake_data, LAMBDA):
    alpha = torch.rand(1, 1).expand(real_data.size())
    interpolates = (alpha * real_data + (1 - alpha) * fake_data).requires_grad_(True)
    disc_interpolates = netD(interpolates)
    gradients = torch.autograd.grad(outputs=disc_interpolates, inputs=interpolates,
                                    grad_outputs=torch.ones_like(disc_interpolates),
                                    create_graph=True, retain_graph=True, only_inputs=True)[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean() * LAMBDA


def train_single_scale(netD, netG, real, opt):
    optimizerD = optim.Adam(netD.parameters(), lr=opt.lr_d, betas=(opt.beta1, 0.999))
    optimizerG = optim.Adam(netG.parameters(), lr=opt.lr_g, betas=(opt.beta1, 0.999))
    prev = torch.zeros_like(real)
    errD2plot, errG2plot = [], []

    for epoch in range(opt.niter):
        noise = torch.randn_like(real) * opt.noise_amp
        ############################
        # (1) Update D network: maximize D(x) + D(G(z))
        ###########################
        for j in range(opt.Dsteps):
            netD.zero_grad()
            output = netD(real)
            errD_real = -output.mean()
            errD_real.backward(retain_graph=True)

            fake = netG(noise.detach(), prev)
            output = netD(fake.detach())
            errD_fake = output.mean()
            errD_fake.backward(retain_graph=True)

            gradient_penalty = calc_gradient_penalty(netD, real, fake, opt.lambda_grad)
            gradient_penalty.backward()
            optimizerD.step()
        errD2plot.append((errD_real + errD_fake + gradient_penalty).item())

        ############################
        # (2) Update G network: maximize D(G(z))
        ###########################
        for j in range(opt.Gsteps):
            netG.zero_grad()
            output = netD(fake.detach())
            errG = -output.mean()
            errG.backward(retain_graph=True)
            optimizerG.step()
        errG2plot.append(errG.item())

        print(f"scale 0:[{epoch}/{opt.niter}] errD {errD2plot[-1]:.4f} errG {errG2plot[-1]:.4f}")
    return fake.detach()


if __name__ == "__main__":
    opt = SimpleNamespace(nc_im=3, nfc=8, num_layer=4, niter=3, Dsteps=2, Gsteps=2, lr_d=5e-4, lr_g=5e-4,
                          beta1=0.5, lambda_grad=0.1, noise_amp=0.1)
    torch.manual_seed(0)
    real = torch.rand(1, opt.nc_im, 20, 20) * 2 - 1
    netD = WDiscriminator(opt)
    netG = GeneratorConcatSkip2CleanAdd(opt)
    out = train_single_scale(netD, netG, real, opt)
    print("generated", tuple(out.shape))
