import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Vgg19Features(nn.Module):
    """Frozen feature pyramid used for the style (Gram) and perceptual losses."""

    def __init__(self):
        super().__init__()
        self.slice1 = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(inplace=True))
        self.slice2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(inplace=True))
        self.slice3 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(inplace=True))
        for p in self.parameters():
            p.requires_grad = False

    def forward(self, x):
        h1 = self.slice1(x)
        h2 = self.slice2(h1)
        h3 = self.slice3(h2)
        return [h1, h2, h3]


def gram_matrix(feat):
    b, c, h, w = feat.size()
    f = feat.view(b, c, h * w)
    return f.bmm(f.transpose(1, 2)) / (c * h * w)


class ExpansionGenerator(nn.Module):
    """k x k texture crop -> 2k x 2k expanded texture."""

    def __init__(self, ngf=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, ngf, 3, 1, 1), nn.InstanceNorm2d(ngf), nn.ReLU(True),
                                 nn.Conv2d(ngf, ngf * 2, 3, 2, 1), nn.InstanceNorm2d(ngf * 2), nn.ReLU(True))
        self.res = nn.Sequential(nn.Conv2d(ngf * 2, ngf * 2, 3, 1, 1), nn.InstanceNorm2d(ngf * 2), nn.ReLU(True))
        self.dec = nn.Sequential(nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1), nn.InstanceNorm2d(ngf), nn.ReLU(True),
                                 nn.ConvTranspose2d(ngf, ngf, 4, 2, 1), nn.ReLU(True),
                                 nn.Conv2d(ngf, 3, 3, 1, 1), nn.Tanh())

    def forward(self, x):
        h = self.enc(x)
        return self.dec(h + self.res(h))


class NLayerDiscriminator(nn.Module):
    def __init__(self, ndf=16):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(3, ndf, 4, 2, 1), nn.LeakyReLU(0.2, True),
                                   nn.Conv2d(ndf, ndf * 2, 4, 2, 1), nn.InstanceNorm2d(ndf * 2),
                                   nn.LeakyReLU(0.2, True), nn.Conv2d(ndf * 2, 1, 4, 1, 1))

    def forward(self, x):
        return self.model(x)


class HalfStyleModel:
    def __init__(self, lambda_A=10.0, lambda_style=100.0, lambda_perceptual=1.0, lr=2e-4):
        self.netG = ExpansionGenerator()
        self.netD = NLayerDiscriminator()
        self.vgg = Vgg19Features().eval()
        self.criterionGAN = nn.MSELoss()
        self.criterionL1 = nn.L1Loss()
        self.lambda_A, self.lambda_style, self.lambda_perceptual = lambda_A, lambda_style, lambda_perceptual
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=lr, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=lr, betas=(0.5, 0.999))

    def set_input(self, input):
        self.real_A = input['A']   # k x k crop
        self.real_B = input['B']   # 2k x 2k source region

    def forward(self):
        self.fake_B = self.netG(self.real_A)

    def backward_D(self):
        pred_fake = self.netD(self.fake_B.detach())
        self.loss_D_fake = self.criterionGAN(pred_fake, torch.zeros_like(pred_fake))
        pred_real = self.netD(self.real_B)
        self.loss_D_real = self.criterionGAN(pred_real, torch.ones_like(pred_real))
        self.loss_D = (self.loss_D_fake + self.loss_D_real) * 0.5
        self.loss_D.backward()

    def backward_G(self):
        pred_fake = self.netD(self.fake_B)
        self.loss_G_GAN = self.criterionGAN(pred_fake, torch.ones_like(pred_fake))
        self.loss_G_L1 = self.criterionL1(self.fake_B, self.real_B) * self.lambda_A

        fake_feats = self.vgg(self.fake_B)
        with torch.no_grad():
            real_feats = self.vgg(self.real_B)
        self.loss_style = sum(F.mse_loss(gram_matrix(f), gram_matrix(r))
                              for f, r in zip(fake_feats, real_feats)) * self.lambda_style
        self.loss_perceptual = F.mse_loss(fake_feats[-1], real_feats[-1]) * self.lambda_perceptual

        # style first (keeps the generator / VGG graph for the second backward), then the rest
        self.loss_style.backward(retain_graph=True)
        self.loss_G = self.loss_G_GAN + self.loss_G_L1 + self.loss_perceptual
        self.loss_G.backward()

    def optimize_parameters(self):
        self.forward()
        self.optimizer_D.zero_grad()
        self.backward_D()
        self.optimizer_D.step()
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()


def texture_crops(n, batch_size=4, k=16):
    base = torch.sin(torch.linspace(0, 12.0, 2 * k))[None, None] * torch.cos(torch.linspace(0, 7.0, 2 * k))[None, :, None]
    for _ in range(n):
        B = (base.expand(batch_size, 3, -1, -1) + 0.1 * torch.randn(batch_size, 3, 2 * k, 2 * k)).clamp(-1, 1)
        A = B[:, :, k // 2:k // 2 + k, k // 2:k // 2 + k]
        yield {'A': A, 'B': B}


if __name__ == '__main__':
    model = HalfStyleModel()
    for epoch in range(2):
        for data in texture_crops(4):
            model.set_input(data)
            model.optimize_parameters()
        print('epoch %d  D %.4f  G_GAN %.4f  L1 %.4f  style %.4f  perc %.4f' % (
            epoch, model.loss_D.item(), model.loss_G_GAN.item(), model.loss_G_L1.item(),
            model.loss_style.item(), model.loss_perceptual.item()))
