"""SRGAN training loop (x2 upscaling) on random low/high-resolution pairs,
following leftthomas/SRGAN's train.py. The VGG perception network is
replaced by a small frozen random conv net so that nothing is downloaded.
"""
import argparse

import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, ch, 9, padding=4), nn.PReLU())
        self.block2 = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.PReLU())
        self.up = nn.Sequential(nn.Conv2d(ch, ch * 4, 3, padding=1), nn.PixelShuffle(2), nn.PReLU())
        self.out = nn.Conv2d(ch, 3, 9, padding=4)

    def forward(self, x):
        b1 = self.block1(x)
        return (torch.tanh(self.out(self.up(b1 + self.block2(b1)))) + 1) / 2


class Discriminator(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, ch, 3, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.BatchNorm2d(ch), nn.LeakyReLU(0.2),
            nn.AdaptiveAvgPool2d(1), nn.Conv2d(ch, 1, 1))

    def forward(self, x):
        return torch.sigmoid(self.net(x).view(x.size(0)))


class TVLoss(nn.Module):
    def forward(self, x):
        h_tv = torch.pow(x[:, :, 1:, :] - x[:, :, :-1, :], 2).sum()
        w_tv = torch.pow(x[:, :, :, 1:] - x[:, :, :, :-1], 2).sum()
        return 2 * (h_tv + w_tv) / x.numel()


class GeneratorLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss_network = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                          nn.Conv2d(8, 8, 3, padding=1)).eval()
        for param in self.loss_network.parameters():
            param.requires_grad = False
        self.mse_loss = nn.MSELoss()
        self.tv_loss = TVLoss()

    def forward(self, out_labels, out_images, target_images):
        adversarial_loss = torch.mean(1 - out_labels)
        perception_loss = self.mse_loss(self.loss_network(out_images), self.loss_network(target_images))
        image_loss = self.mse_loss(out_images, target_images)
        tv_loss = self.tv_loss(out_images)
        return image_loss + 0.001 * adversarial_loss + 0.006 * perception_loss + 2e-8 * tv_loss


def main():
    parser = argparse.ArgumentParser(description="Train Super Resolution Models")
    parser.add_argument("--crop_size", default=32, type=int)
    parser.add_argument("--num_epochs", default=2, type=int)
    parser.add_argument("--batches", default=3, type=int)
    opt = parser.parse_args()

    torch.manual_seed(0)
    netG, netD = Generator(), Discriminator()
    generator_criterion = GeneratorLoss()
    optimizerG = torch.optim.Adam(netG.parameters())
    optimizerD = torch.optim.Adam(netD.parameters())
    hr = torch.rand(opt.batches * 4, 3, opt.crop_size, opt.crop_size)
    lr_imgs = nn.functional.avg_pool2d(hr, 2)
    train_loader = [(lr_imgs[i:i + 4], hr[i:i + 4]) for i in range(0, len(hr), 4)]

    for epoch in range(1, opt.num_epochs + 1):
        netG.train()
        netD.train()
        for data, target in train_loader:
            real_img = target
            z = data
            fake_img = netG(z)

            ############################
            # (1) Update D network: maximize D(x)-1-D(G(z))
            ###########################
            netD.zero_grad()
            real_out = netD(real_img).mean()
            fake_out = netD(fake_img).mean()
            d_loss = 1 - real_out + fake_out
            d_loss.backward(retain_graph=True)
            optimizerD.step()

            ############################
            # (2) Update G network: minimize 1-D(G(z)) + Perception Loss + Image Loss + TV Loss
            ###########################
            netG.zero_grad()
            fake_img = netG(z)
            fake_out = netD(fake_img).mean()
            g_loss = generator_criterion(fake_out, fake_img, real_img)
            g_loss.backward()
            optimizerG.step()
        print(f"[{epoch}/{opt.num_epochs}] Loss_D: {d_loss.item():.4f} Loss_G: {g_loss.item():.4f}")


if __name__ == "__main__":
    main()
