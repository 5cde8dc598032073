import torch
import torch.nn as nn

from networks import GlobalGenerator, NLayerDiscriminator, GANLoss, ImagePool


class Pix2PixHDModel(nn.Module):
    def __init__(self, label_nc=4, output_nc=3, lambda_feat=10.0, pool_size=4):
        super().__init__()
        self.netG = GlobalGenerator(label_nc, output_nc)
        self.netD = NLayerDiscriminator(label_nc + output_nc)
        self.fake_pool = ImagePool(pool_size)
        self.criterionGAN = GANLoss()
        self.criterionFeat = nn.L1Loss()
        self.lambda_feat = lambda_feat
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=2e-4, betas=(0.5, 0.999))

    def discriminate(self, input_label, test_image, use_pool=False):
        input_concat = torch.cat((input_label, test_image.detach()), dim=1)
        if use_pool:
            fake_query = self.fake_pool.query(input_concat)
            return self.netD(fake_query)
        return self.netD(input_concat)

    def forward(self, label, image):
        fake_image = self.netG(label)

        # Fake Detection and Loss
        pred_fake_pool = self.discriminate(label, fake_image, use_pool=True)
        loss_D_fake = self.criterionGAN(pred_fake_pool, False)

        # Real Detection and Loss
        pred_real = self.discriminate(label, image)
        loss_D_real = self.criterionGAN(pred_real, True)

        # GAN loss (Fake Passability Loss)
        pred_fake = self.netD(torch.cat((label, fake_image), dim=1))
        loss_G_GAN = self.criterionGAN(pred_fake, True)

        # GAN feature matching loss
        loss_G_GAN_Feat = 0
        for j in range(len(pred_fake) - 1):
            loss_G_GAN_Feat = loss_G_GAN_Feat + \
                self.criterionFeat(pred_fake[j], pred_real[j].detach()) * self.lambda_feat / (len(pred_fake) - 1)

        return [loss_G_GAN, loss_G_GAN_Feat, loss_D_real, loss_D_fake], fake_image
