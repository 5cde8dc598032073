import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)


class Opt:
    nfc, min_nfc, ker_size, num_layer = 16, 16, 3, 3
    niter, Dsteps, Gsteps = 4, 3, 3
    lr_g, lr_d, beta1 = 5e-4, 5e-4, 0.5
    lambda_grad, alpha, noise_amp = 0.1, 10, 0.1


class ConvBlock(nn.Sequential):
    def __init__(self, in_channel, out_channel, ker_size, padd, stride):
        super(ConvBlock, self).__init__()
        self.add_module('conv', nn.Conv2d(in_channel, out_channel, kernel_size=ker_size, stride=stride, padding=padd))
        self.add_module('norm', nn.BatchNorm2d(out_channel))
        self.add_module('LeakyRelu', nn.LeakyReLU(0.2, inplace=True))


class WDiscriminator(nn.Module):
    def __init__(self, opt):
        super(WDiscriminator, self).__init__()
        self.head = ConvBlock(3, opt.nfc, opt.ker_size, 1, 1)
        self.body = nn.Sequential(*[ConvBlock(opt.nfc, opt.nfc, opt.ker_size, 1, 1) for _ in range(opt.num_layer - 2)])
        self.tail = nn.Conv2d(opt.nfc, 1, kernel_size=opt.ker_size, stride=1, padding=1)

    def forward(self, x):
        return self.tail(self.body(self.head(x)))


class GeneratorConcatSkip2CleanAdd(nn.Module):
    def __init__(self, opt):
        super(GeneratorConcatSkip2CleanAdd, self).__init__()
        self.head = ConvBlock(3, opt.nfc, opt.ker_size, 1, 1)
        self.body = nn.Sequential(*[ConvBlock(opt.nfc, opt.nfc, opt.ker_size, 1, 1) for _ in range(opt.num_layer - 2)])
        self.tail = nn.Sequential(nn.Conv2d(opt.nfc, 3, kernel_size=opt.ker_size, stride=1, padding=1), nn.Tanh())

    def forward(self, x, y):
        return self.tail(self.body(self.head(x))) + y


def calc_gradient_penalty(netD, real_data, fake_data, LAMBDA):
    alpha = torch.rand(1, 1).expand(real_data.size())
    interpolates = alpha * real_data + ((1 - alpha) * fake_data)
    interpolates = torch.autograd.Variable(interpolates, requires_grad=True)
    disc_interpolates = netD(interpolates)
    gradients = torch.autograd.grad(outputs=disc_interpolates, inputs=interpolates,
                                    grad_outputs=torch.ones(disc_interpolates.size()),
                                    create_graph=True, retain_graph=True, only_inputs=True)[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean() * LAMBDA


def train_single_scale(netD, netG, real, opt):
    z_opt = torch.randn_like(real)
    prev = torch.zeros_like(real)
    optimizerD = optim.Adam(netD.parameters(), lr=opt.lr_d, betas=(opt.beta1, 0.999))
    optimizerG = optim.Adam(netG.parameters(), lr=opt.lr_g, betas=(opt.beta1, 0.999))
    loss = nn.MSELoss()

    for epoch in range(opt.niter):
        noise_ = torch.randn_like(real)
        ############################
        # (1) Update D network: maximize D(x) + D(G(z))
        ###########################
        for j in range(opt.Dsteps):
            netD.zero_grad()
            output = netD(real)
            errD_real = -output.mean()
            errD_real.backward(retain_graph=True)

            noise = opt.noise_amp * noise_ + prev
            fake = netG(noise.detach(), prev)
            output = netD(fake.detach())
            errD_fake = output.mean()
            errD_fake.backward(retain_graph=True)

            gradient_penalty = calc_gradient_penalty(netD, real, fake, opt.lambda_grad)
            gradient_penalty.backward()
            optimizerD.step()

        ############################
        # (2) Update G network: maximize D(G(z))
        ###########################
        for j in range(opt.Gsteps):
            netG.zero_grad()
            fake = netG(noise.detach(), prev)
            output = netD(fake)
            errG = -output.mean()
            errG.backward(retain_graph=True)
            Z_opt = opt.noise_amp * z_opt + prev
            rec_loss = opt.alpha * loss(netG(Z_opt.detach(), prev), real)
            rec_loss.backward(retain_graph=True)
            optimizerG.step()

        print('epoch %d  errD %.4f  errG %.4f  rec %.4f' % (epoch, (errD_real + errD_fake).item(), errG.item(), rec_loss.item()))


opt = Opt()
real = torch.rand(1, 3, 20, 20) * 2 - 1
train_single_scale(WDiscriminator(opt), GeneratorConcatSkip2CleanAdd(opt), real, opt)
