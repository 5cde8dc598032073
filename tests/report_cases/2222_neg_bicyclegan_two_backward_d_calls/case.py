import torch
import torch.nn as nn

torch.manual_seed(0)


class Opt:
    nz = 8
    lambda_GAN = 1.0
    lambda_GAN2 = 1.0
    lambda_kl = 0.01
    lambda_L1 = 10.0
    lambda_z = 0.5
    use_same_D = True
    lr = 2e-4
    beta1 = 0.5


class G_Unet_add_all(nn.Module):
    """Generator: image A + latent z (broadcast to every layer input) -> image B."""

    def __init__(self, nz=8, ngf=16):
        super().__init__()
        self.nz = nz
        self.down = nn.Sequential(nn.Conv2d(3 + nz, ngf, 4, 2, 1), nn.LeakyReLU(0.2, True))
        self.mid = nn.Sequential(nn.Conv2d(ngf + nz, ngf * 2, 3, 1, 1), nn.ReLU(True))
        self.up = nn.Sequential(nn.ConvTranspose2d(ngf * 2, 3, 4, 2, 1), nn.Tanh())

    def forward(self, x, z):
        z_img = z.view(z.size(0), z.size(1), 1, 1)
        h = self.down(torch.cat([x, z_img.expand(-1, -1, x.size(2), x.size(3))], 1))
        h = self.mid(torch.cat([h, z_img.expand(-1, -1, h.size(2), h.size(3))], 1))
        return self.up(h)


class E_ResNet(nn.Module):
    def __init__(self, nz=8, nef=16):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, nef, 4, 2, 1), nn.LeakyReLU(0.2, True),
                                  nn.Conv2d(nef, nef * 2, 4, 2, 1), nn.LeakyReLU(0.2, True),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(nef * 2, nz)
        self.fcVar = nn.Linear(nef * 2, nz)

    def forward(self, x):
        h = self.conv(x)
        return self.fc(h), self.fcVar(h)


class D_NLayersMulti(nn.Module):
    def __init__(self, ndf=16):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(6, ndf, 4, 2, 1), nn.LeakyReLU(0.2, True),
                                   nn.Conv2d(ndf, ndf * 2, 4, 2, 1), nn.BatchNorm2d(ndf * 2),
                                   nn.LeakyReLU(0.2, True), nn.Conv2d(ndf * 2, 1, 3, 1, 1))

    def forward(self, x):
        return [self.model(x)]


class GANLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.MSELoss()

    def __call__(self, predictions, target_is_real):
        all_losses = []
        for pred in predictions:
            target = torch.ones_like(pred) if target_is_real else torch.zeros_like(pred)
            all_losses.append(self.loss(pred, target))
        return sum(all_losses), all_losses


class BiCycleGANModel:
    def __init__(self, opt):
        self.opt = opt
        self.netG = G_Unet_add_all(opt.nz)
        self.netE = E_ResNet(opt.nz)
        self.netD = D_NLayersMulti()
        self.criterionGAN = GANLoss()
        self.criterionL1 = nn.L1Loss()
        self.criterionZ = nn.L1Loss()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
        self.optimizer_E = torch.optim.Adam(self.netE.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))

    @staticmethod
    def set_requires_grad(nets, requires_grad=False):
        for net in nets:
            if net is not None:
                for param in net.parameters():
                    param.requires_grad = requires_grad

    def set_input(self, input):
        self.real_A = input['A']
        self.real_B = input['B']

    def get_z_random(self, batch_size, nz):
        return torch.randn(batch_size, nz)

    def encode(self, input_image):
        mu, logvar = self.netE.forward(input_image)
        std = logvar.mul(0.5).exp_()
        eps = self.get_z_random(std.size(0), std.size(1))
        z = eps.mul(std).add_(mu)
        return z, mu, logvar

    def forward(self):
        half_size = self.real_A.size(0) // 2
        self.real_A_encoded = self.real_A[0:half_size]
        self.real_B_encoded = self.real_B[0:half_size]
        self.real_A_random = self.real_A[half_size:]
        self.real_B_random = self.real_B[half_size:]
        # get encoded z
        self.z_encoded, self.mu, self.logvar = self.encode(self.real_B_encoded)
        # get random z
        self.z_random = self.get_z_random(self.real_A_encoded.size(0), self.opt.nz)
        # generate fake_B_encoded
        self.fake_B_encoded = self.netG(self.real_A_encoded, self.z_encoded)
        # generate fake_B_random
        self.fake_B_random = self.netG(self.real_A_encoded, self.z_random)
        self.fake_data_encoded = torch.cat([self.real_A_encoded, self.fake_B_encoded], 1)
        self.real_data_encoded = torch.cat([self.real_A_encoded, self.real_B_encoded], 1)
        self.fake_data_random = torch.cat([self.real_A_encoded, self.fake_B_random], 1)
        self.real_data_random = torch.cat([self.real_A_random, self.real_B_random], 1)
        # compute z_predict
        if self.opt.lambda_z > 0.0:
            self.mu2, logvar2 = self.netE(self.fake_B_random)

    def backward_D(self, netD, real, fake):
        # Fake, stop backprop to the generator by detaching fake_B
        pred_fake = netD(fake.detach())
        # real
        pred_real = netD(real)
        loss_D_fake, _ = self.criterionGAN(pred_fake, False)
        loss_D_real, _ = self.criterionGAN(pred_real, True)
        # Combined loss
        loss_D = loss_D_fake + loss_D_real
        loss_D.backward()
        return loss_D, [loss_D_fake, loss_D_real]

    def backward_G_GAN(self, fake, netD=None, ll=0.0):
        if ll > 0.0:
            pred_fake = netD(fake)
            loss_G_GAN, _ = self.criterionGAN(pred_fake, True)
        else:
            loss_G_GAN = 0
        return loss_G_GAN * ll

    def backward_EG(self):
        # 1, G(A) should fool D
        self.loss_G_GAN = self.backward_G_GAN(self.fake_data_encoded, self.netD, self.opt.lambda_GAN)
        self.loss_G_GAN2 = self.backward_G_GAN(self.fake_data_random, self.netD, self.opt.lambda_GAN2)
        # 2. KL loss
        self.loss_kl = torch.sum(1 + self.logvar - self.mu.pow(2) - self.logvar.exp()) * (-0.5 * self.opt.lambda_kl)
        # 3, reconstruction |fake_B-real_B|
        self.loss_G_L1 = self.criterionL1(self.fake_B_encoded, self.real_B_encoded) * self.opt.lambda_L1
        self.loss_G = self.loss_G_GAN + self.loss_G_GAN2 + self.loss_G_L1 + self.loss_kl
        self.loss_G.backward(retain_graph=True)

    def backward_G_alone(self):
        # 3, reconstruction |(E(G(A, z_random)))-z_random|
        self.loss_z_L1 = self.criterionZ(self.mu2, self.z_random) * self.opt.lambda_z
        self.loss_z_L1.backward()

    def update_D(self):
        self.set_requires_grad([self.netD], True)
        # update D1
        self.optimizer_D.zero_grad()
        self.loss_D, self.losses_D = self.backward_D(self.netD, self.real_data_encoded, self.fake_data_encoded)
        if self.opt.use_same_D:
            self.loss_D2, self.losses_D2 = self.backward_D(self.netD, self.real_data_random, self.fake_data_random)
        self.optimizer_D.step()

    def update_G_and_E(self):
        # update G and E
        self.set_requires_grad([self.netD], False)
        self.optimizer_E.zero_grad()
        self.optimizer_G.zero_grad()
        self.backward_EG()
        # update G alone
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


def edges2shoes_like(n, batch_size=4):
    for _ in range(n):
        B = torch.tanh(torch.randn(batch_size, 3, 16, 16).cumsum(-1) * 0.3)
        A = (B.mean(1, keepdim=True) > 0).float().expand(-1, 3, -1, -1) * 2 - 1
        yield {'A': A, 'B': B}


if __name__ == '__main__':
    model = BiCycleGANModel(Opt())
    for epoch in range(2):
        for i, data in enumerate(edges2shoes_like(4)):
            model.set_input(data)
            model.optimize_parameters()
        print('epoch', epoch, 'G %.4f D %.4f D2 %.4f z_L1 %.4f' % (
            model.loss_G.item(), model.loss_D.item(), model.loss_D2.item(), model.loss_z_L1.item()))
