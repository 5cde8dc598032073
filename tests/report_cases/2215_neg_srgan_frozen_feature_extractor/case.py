from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F

from networks import MSRResNet, Discriminator_VGG, VGGFeatureExtractor, GANLoss

torch.manual_seed(0)


class SRRaGANModel:
    def __init__(self, opt):
        self.netG = MSRResNet()
        self.netD = Discriminator_VGG()
        self.netF = VGGFeatureExtractor()
        self.netF.eval()
        self.cri_pix = nn.L1Loss()
        self.l_pix_w = opt['pixel_weight']
        self.cri_fea = nn.L1Loss()
        self.l_fea_w = opt['feature_weight']
        self.cri_gan = GANLoss('ragan')
        self.l_gan_w = opt['gan_weight']
        self.D_update_ratio = opt['D_update_ratio']
        self.D_init_iters = opt['D_init_iters']
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=opt['lr_G'], betas=(0.9, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=opt['lr_D'], betas=(0.9, 0.999))
        self.log_dict = OrderedDict()

    def feed_data(self, data):
        self.var_L = data['LR']
        self.var_H = data['HR']
        self.var_ref = data['ref'] if 'ref' in data else data['HR']

    def optimize_parameters(self, step):
        # G
        for p in self.netD.parameters():
            p.requires_grad = False

        self.optimizer_G.zero_grad()
        self.fake_H = self.netG(self.var_L)

        l_g_total = 0
        if step % self.D_update_ratio == 0 and step > self.D_init_iters:
            l_g_pix = self.l_pix_w * self.cri_pix(self.fake_H, self.var_H)
            l_g_total += l_g_pix
            real_fea = self.netF(self.var_H).detach()
            fake_fea = self.netF(self.fake_H)
            l_g_fea = self.l_fea_w * self.cri_fea(fake_fea, real_fea)
            l_g_total += l_g_fea
            # G gan + cls loss
            pred_g_fake = self.netD(self.fake_H)
            pred_d_real = self.netD(self.var_ref).detach()
            l_g_gan = self.l_gan_w * (self.cri_gan(pred_d_real - torch.mean(pred_g_fake), False) +
                                      self.cri_gan(pred_g_fake - torch.mean(pred_d_real), True)) / 2
            l_g_total += l_g_gan

            l_g_total.backward()
            self.optimizer_G.step()

        # D
        for p in self.netD.parameters():
            p.requires_grad = True

        self.optimizer_D.zero_grad()
        pred_d_real = self.netD(self.var_ref)
        pred_d_fake = self.netD(self.fake_H.detach())  # detach to avoid BP to G
        l_d_real = self.cri_gan(pred_d_real - torch.mean(pred_d_fake), True)
        l_d_fake = self.cri_gan(pred_d_fake - torch.mean(pred_d_real), False)
        l_d_total = (l_d_real + l_d_fake) / 2
        l_d_total.backward()
        self.optimizer_D.step()

        # set log
        if step % self.D_update_ratio == 0 and step > self.D_init_iters:
            self.log_dict['l_g_pix'] = l_g_pix.item()
            self.log_dict['l_g_fea'] = l_g_fea.item()
            self.log_dict['l_g_gan'] = l_g_gan.item()
        self.log_dict['l_d_real'] = l_d_real.item()
        self.log_dict['l_d_fake'] = l_d_fake.item()
        self.log_dict['D_real'] = torch.mean(pred_d_real.detach())
        self.log_dict['D_fake'] = torch.mean(pred_d_fake.detach())


def create_dataloader(n, batch_size=4, hr_size=32):
    for _ in range(n):
        hr = torch.rand(batch_size, 3, hr_size, hr_size)
        lr = F.avg_pool2d(hr, 2)
        yield {'LR': lr, 'HR': hr}


def main():
    opt = {'pixel_weight': 1e-2, 'feature_weight': 1.0, 'gan_weight': 5e-3, 'D_update_ratio': 1,
           'D_init_iters': 0, 'lr_G': 1e-4, 'lr_D': 1e-4}
    model = SRRaGANModel(opt)
    current_step = 0
    for epoch in range(2):
        for train_data in create_dataloader(4):
            current_step += 1
            model.feed_data(train_data)
            model.optimize_parameters(current_step)
        logs = {k: round(float(v), 4) for k, v in model.log_dict.items()}
        print('epoch', epoch, logs)


if __name__ == '__main__':
    main()
