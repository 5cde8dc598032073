"""WGAN (weight clipping) on random 28x28 "images", after PyTorch-GAN's wgan.py.

The batch of generated images is produced once per iteration and shared by
the critic update and, every n_critic iterations, by the generator update.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--n_epochs", type=int, default=1)
parser.add_argument("--batch_size", type=int, default=16)
parser.add_argument("--lr", type=float, default=0.00005)
parser.add_argument("--latent_dim", type=int, default=32)
parser.add_argument("--img_size", type=int, default=28)
parser.add_argument("--n_critic", type=int, default=2)
parser.add_argument("--clip_value", type=float, default=0.01)
parser.add_argument("--n_batches", type=int, default=6)
opt = parser.parse_args()

img_shape = (1, opt.img_size, opt.img_size)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()

        def block(in_feat, out_feat, normalize=True):
            layers = [nn.Linear(in_feat, out_feat)]
            if normalize:
                layers.append(nn.BatchNorm1d(out_feat, 0.8))
            layers.append(nn.LeakyReLU(0.2, inplace=True))
            return layers

        self.model = nn.Sequential(*block(opt.latent_dim, 64, normalize=False), *block(64, 128),
                                   nn.Linear(128, int(np.prod(img_shape))), nn.Tanh())

    def forward(self, z):
        return self.model(z).view(z.shape[0], *img_shape)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(int(np.prod(img_shape)), 128), nn.LeakyReLU(0.2, inplace=True),
                                   nn.Linear(128, 64), nn.LeakyReLU(0.2, inplace=True), nn.Linear(64, 1))

    def forward(self, img):
        return self.model(img.view(img.shape[0], -1))


torch.manual_seed(0)
np.random.seed(0)
generator = Generator()
discriminator = Discriminator()
optimizer_G = torch.optim.RMSprop(generator.parameters(), lr=opt.lr)
optimizer_D = torch.optim.RMSprop(discriminator.parameters(), lr=opt.lr)
Tensor = torch.FloatTensor
dataloader = [torch.rand(opt.batch_size, *img_shape) * 2 - 1 for _ in range(opt.n_batches)]

batches_done = 0
for epoch in range(opt.n_epochs):
    for i, imgs in enumerate(dataloader):
        real_imgs = imgs.type(Tensor)

        # ---------------------
        #  Train Discriminator
        # ---------------------
        optimizer_D.zero_grad()
        z = Tensor(np.random.normal(0, 1, (imgs.shape[0], opt.latent_dim)))
        fake_imgs = generator(z)
        loss_D = -torch.mean(discriminator(real_imgs)) + torch.mean(discriminator(fake_imgs))
        loss_D.backward()
        optimizer_D.step()
        for p in discriminator.parameters():
            p.data.clamp_(-opt.clip_value, opt.clip_value)

        # Train the generator every n_critic iterations
        if i % opt.n_critic == 0:
            # -----------------
            #  Train Generator
            # -----------------
            optimizer_G.zero_grad()
            loss_G = -torch.mean(discriminator(fake_imgs))
            loss_G.backward()
            optimizer_G.step()
            print("[Epoch %d/%d] [Batch %d/%d] [D loss: %f] [G loss: %f]"
                  % (epoch, opt.n_epochs, batches_done % len(dataloader), len(dataloader),
                     loss_D.item(), loss_G.item()))
        batches_done += 1
