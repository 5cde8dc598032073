# Super-resolution GAN training step (SRGAN-style train loop, tiny sizes).
import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, scale=2, ch=8):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.PReLU(),
                                  nn.Conv2d(ch, 3 * scale * scale, 3, padding=1),
                                  nn.PixelShuffle(scale))

    def forward(self, x):
        return (torch.tanh(self.body(x)) + 1) / 2


class Discriminator(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, ch, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                                 nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(ch, 1))

    def forward(self, x):
        return torch.sigmoid(self.net(x))


class GeneratorLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.mse = nn.MSELoss()

    def forward(self, out_labels, out_images, target_images):
        adversarial_loss = torch.mean(1 - out_labels)
        image_loss = self.mse(out_images, target_images)
        return image_loss + 0.001 * adversarial_loss


torch.manual_seed(0)
netG, netD = Generator(), Discriminator()
generator_criterion = GeneratorLoss()
optimizerG = torch.optim.Adam(netG.parameters())
optimizerD = torch.optim.Adam(netD.parameters())

for epoch in range(3):
    lr_img = torch.rand(2, 3, 8, 8)
    real_img = torch.rand(2, 3, 16, 16)
    fake_img = netG(lr_img)

    # (1) Update D network: maximize D(x)-1-D(G(z))
    netD.zero_grad()
    real_out = netD(real_img).mean()
    fake_out = netD(fake_img).mean()
    d_loss = 1 - real_out + fake_out
    d_loss.backward(retain_graph=True)
    optimizerD.step()

    # (2) Update G network: minimize 1-D(G(z)) + image loss
    netG.zero_grad()
    g_loss = generator_criterion(fake_out, fake_img, real_img)
    g_loss.backward()
    optimizerG.step()
    print(epoch, d_loss.item(), g_loss.item())
