import argparse

import torch
import torch.nn as nn
import torch.optim as optim

parser = argparse.ArgumentParser(description='Train Super Resolution Models')
parser.add_argument('--crop_size', default=16, type=int, help='training images crop size')
parser.add_argument('--upscale_factor', default=2, type=int, choices=[2, 4, 8])
parser.add_argument('--num_epochs', default=2, type=int, help='train epoch number')
opt = parser.parse_args()


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, kernel_size=3, padding=1)
        self.prelu = nn.PReLU()
        self.conv2 = nn.Conv2d(channels, channels, kernel_size=3, padding=1)

    def forward(self, x):
        residual = self.conv2(self.prelu(self.conv1(x)))
        return x + residual


class Generator(nn.Module):
    def __init__(self, scale_factor):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 8, kernel_size=3, padding=1), nn.PReLU())
        self.block2 = ResidualBlock(8)
        self.block3 = nn.Sequential(nn.Conv2d(8, 3 * scale_factor ** 2, kernel_size=3, padding=1),
                                    nn.PixelShuffle(scale_factor))

    def forward(self, x):
        b1 = self.block1(x)
        return (torch.tanh(self.block3(b1 + self.block2(b1))) + 1) / 2


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 8, kernel_size=3, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(8, 16, kernel_size=3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.AdaptiveAvgPool2d(1), nn.Conv2d(16, 1, kernel_size=1))

    def forward(self, x):
        return torch.sigmoid(self.net(x).view(x.size(0)))


class GeneratorLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.mse_loss = nn.MSELoss()

    def forward(self, out_labels, out_images, target_images):
        adversarial_loss = torch.mean(1 - out_labels)
        image_loss = self.mse_loss(out_images, target_images)
        return image_loss + 0.001 * adversarial_loss


torch.manual_seed(0)
netG = Generator(opt.upscale_factor)
netD = Discriminator()
generator_criterion = GeneratorLoss()
optimizerG = optim.Adam(netG.parameters())
optimizerD = optim.Adam(netD.parameters())

hr = torch.rand(8, 3, opt.crop_size, opt.crop_size)
lr = nn.functional.avg_pool2d(hr, opt.upscale_factor)
train_loader = [(lr[i:i + 4], hr[i:i + 4]) for i in range(0, 8, 4)]

results = {'d_loss': [], 'g_loss': [], 'd_score': [], 'g_score': []}
for epoch in range(1, opt.num_epochs + 1):
    running_results = {'batch_sizes': 0, 'd_loss': 0, 'g_loss': 0, 'd_score': 0, 'g_score': 0}
    netG.train()
    netD.train()
    for data, target in train_loader:
        batch_size = data.size(0)
        running_results['batch_sizes'] += batch_size

        ############################
        # (1) Update D network: maximize D(x)-1-D(G(z))
        ###########################
        real_img = target
        z = data
        fake_img = netG(z)

        netD.zero_grad()
        real_out = netD(real_img).mean()
        fake_out = netD(fake_img).mean()
        d_loss = 1 - real_out + fake_out
        d_loss.backward(retain_graph=True)
        optimizerD.step()

        ############################
        # (2) Update G network: minimize 1-D(G(z)) + Image Loss
        ###########################
        netG.zero_grad()
        g_loss = generator_criterion(fake_out, fake_img, real_img)
        g_loss.backward()
        optimizerG.step()

        running_results['g_loss'] += g_loss.item() * batch_size
        running_results['d_loss'] += d_loss.item() * batch_size
        running_results['d_score'] += real_out.item() * batch_size
        running_results['g_score'] += fake_out.item() * batch_size

    print('[%d/%d] Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f' % (
        epoch, opt.num_epochs, running_results['d_loss'] / running_results['batch_sizes'],
        running_results['g_loss'] / running_results['batch_sizes'],
        running_results['d_score'] / running_results['batch_sizes'],
        running_results['g_score'] / running_results['batch_sizes']))
