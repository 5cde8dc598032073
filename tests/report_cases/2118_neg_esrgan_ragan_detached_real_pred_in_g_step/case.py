"""ESRGAN-style SRGANModel.optimize_parameters (mmsr layout): relativistic
average GAN.  In the G step D's parameters have requires_grad=False and the
real prediction is netD(var_ref).detach(); in the D step the fake is detached.
A frozen feature extractor gives the perceptual loss.  Random LR/HR patches."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RRDBNetTiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Conv2d(3, 16, 3, 1, 1)
        self.body = nn.Sequential(nn.Conv2d(16, 16, 3, 1, 1), nn.LeakyReLU(0.2), nn.Conv2d(16, 16, 3, 1, 1))
        self.up = nn.Sequential(nn.Upsample(scale_factor=2, mode="nearest"), nn.Conv2d(16, 3, 3, 1, 1))

    def forward(self, x):
        f = self.head(x)
        return self.up(f + 0.2 * self.body(f))


class VGGStyleDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.LeakyReLU(0.2, True),
                                      nn.Conv2d(16, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.LeakyReLU(0.2, True))
        self.classifier = nn.Linear(32 * 4 * 4, 1)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


class SRGANModel:
    def __init__(self, l_pix_w=0.01, l_fea_w=1.0, l_gan_w=0.005):
        self.netG, self.netD = RRDBNetTiny(), VGGStyleDiscriminator()
        self.netF = nn.Sequential(nn.Conv2d(3, 8, 3, 1, 1), nn.ReLU(), nn.Conv2d(8, 8, 3, 1, 1))
        for p in self.netF.parameters():
            p.requires_grad = False
        self.netF.eval()
        self.cri_pix, self.cri_fea = nn.L1Loss(), nn.L1Loss()
        self.cri_gan = lambda pred, is_real: F.binary_cross_entropy_with_logits(
            pred, torch.full_like(pred, 1.0 if is_real else 0.0))
        self.l_pix_w, self.l_fea_w, self.l_gan_w = l_pix_w, l_fea_w, l_gan_w
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=1e-4, betas=(0.9, 0.99))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=1e-4, betas=(0.9, 0.99))
        self.log_dict = {}

    def feed_data(self, lr, hr):
        self.var_L, self.var_ref = lr, hr

    def optimize_parameters(self, step):
        # G
        for p in self.netD.parameters():
            p.requires_grad = False
        self.optimizer_G.zero_grad()
        self.fake_H = self.netG(self.var_L)
        l_g_pix = self.l_pix_w * self.cri_pix(self.fake_H, self.var_ref)
        real_fea = self.netF(self.var_ref).detach()
        l_g_fea = self.l_fea_w * self.cri_fea(self.netF(self.fake_H), real_fea)
        pred_g_fake = self.netD(self.fake_H)
        pred_d_real = self.netD(self.var_ref).detach()
        l_g_gan = self.l_gan_w * (self.cri_gan(pred_d_real - torch.mean(pred_g_fake), False) +
                                  self.cri_gan(pred_g_fake - torch.mean(pred_d_real), True)) / 2
        l_g_total = l_g_pix + l_g_fea + l_g_gan
        l_g_total.backward()
        self.optimizer_G.step()

        # D
        for p in self.netD.parameters():
            p.requires_grad = True
        self.optimizer_D.zero_grad()
        pred_d_real = self.netD(self.var_ref)
        pred_d_fake = self.netD(self.fake_H.detach())
        l_d_real = self.cri_gan(pred_d_real - torch.mean(pred_d_fake), True)
        l_d_fake = self.cri_gan(pred_d_fake - torch.mean(pred_d_real), False)
        l_d_total = (l_d_real + l_d_fake) / 2
        l_d_total.backward()
        self.optimizer_D.step()

        self.log_dict.update(l_g_total=l_g_total.item(), l_d_total=l_d_total.item(),
                             D_real=torch.sigmoid(pred_d_real).mean().item())


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SRGANModel()
    for step in range(4):
        hr = torch.rand(2, 3, 16, 16)
        model.feed_data(F.avg_pool2d(hr, 2), hr)
        model.optimize_parameters(step)
        print(step, model.log_dict)
