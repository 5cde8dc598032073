import time

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)


class Generator(nn.Module):
    """First frame [B,3,1,H,W] -> video [B,3,T,H,W] (foreground/background two-stream style)."""

    def __init__(self, frames=8, ch=16):
        super(Generator, self).__init__()
        self.frames = frames
        self.encode = nn.Sequential(nn.Conv2d(3, ch, 4, 2, 1), nn.ReLU(True),
                                    nn.Conv2d(ch, ch * 2, 4, 2, 1), nn.BatchNorm2d(ch * 2), nn.ReLU(True))
        self.video = nn.Sequential(nn.ConvTranspose3d(ch * 2, ch, (frames // 2, 4, 4), (1, 2, 2), (0, 1, 1)),
                                   nn.BatchNorm3d(ch), nn.ReLU(True),
                                   nn.ConvTranspose3d(ch, 4, (2, 4, 4), (2, 2, 2), (0, 1, 1)))
        self.static = nn.Sequential(nn.ConvTranspose2d(ch * 2, ch, 4, 2, 1), nn.ReLU(True),
                                    nn.ConvTranspose2d(ch, 3, 4, 2, 1), nn.Tanh())

    def forward(self, x):
        z = self.encode(x.squeeze(2))
        v = self.video(z[:, :, None])                        # B x 4 x T x H x W
        foreground, mask = torch.tanh(v[:, :3]), torch.sigmoid(v[:, 3:])
        background = self.static(z)[:, :, None]
        return mask * foreground + (1 - mask) * background


class Discriminator(nn.Module):
    def __init__(self, ch=16):
        super(Discriminator, self).__init__()
        self.model = nn.Sequential(nn.Conv3d(3, ch, 4, 2, 1), nn.LeakyReLU(0.2, True),
                                   nn.Conv3d(ch, ch * 2, 4, 2, 1), nn.BatchNorm3d(ch * 2), nn.LeakyReLU(0.2, True),
                                   nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Linear(ch * 2, 2))

    def forward(self, x):
        return self.model(x)


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        m.weight.data.normal_(0.0, 0.02)
    elif classname.find('BatchNorm') != -1:
        m.weight.data.normal_(1.0, 0.02)
        m.bias.data.fill_(0)


class DataLoader:
    def __init__(self, batch_size, frames=8, size=16):
        self.batch_size, self.frames, self.size = batch_size, frames, size
        self.train_index = list(range(64))

    def get_batch(self):
        base = torch.tanh(torch.randn(self.batch_size, 3, 1, self.size, self.size))
        shift = torch.arange(self.frames).view(1, 1, -1, 1, 1) * 0.05
        return (base + shift).clamp(-1, 1)   # [B, 3, T, H, W], slowly brightening scene


num_epoch = 2
batchSize = 8
lr = 0.0002
l1_lambda = 10

discriminator = Discriminator()
generator = Generator()
discriminator.apply(weights_init)
generator.apply(weights_init)

loss_function = nn.CrossEntropyLoss()
d_optim = torch.optim.Adam(discriminator.parameters(), lr, [0.5, 0.999])
g_optim = torch.optim.Adam(generator.parameters(), lr, [0.5, 0.999])

dataloader = DataLoader(batchSize)
data_size = len(dataloader.train_index)
num_batch = data_size // batchSize

start_time = time.time()
d_loss = g_loss = torch.zeros(())
for current_epoch in range(1, num_epoch + 1):
    n_updates = 1
    for batch_index in range(num_batch):
        videos = dataloader.get_batch()
        real_labels = torch.LongTensor(np.ones(batchSize, dtype=int))
        fake_labels = torch.LongTensor(np.zeros(batchSize, dtype=int))

        if n_updates % 2 == 1:
            discriminator.zero_grad()
            generator.zero_grad()
            outputs = discriminator(videos).squeeze()
            d_real_loss = loss_function(outputs, real_labels)
            fake_videos_d = generator(videos[:, :, 0:1, :, :])
            outputs = discriminator(fake_videos_d).squeeze()
            d_fake_loss = loss_function(outputs, fake_labels)
            d_loss = d_real_loss + d_fake_loss
            d_loss.backward()
            d_optim.step()
        else:
            discriminator.zero_grad()
            generator.zero_grad()
            first_frame = videos[:, :, 0:1, :, :]
            fake_videos = generator(first_frame)
            outputs = discriminator(fake_videos).squeeze()
            gen_first_frame = fake_videos[:, :, 0:1, :, :]
            reg_loss = torch.mean(torch.abs(first_frame - gen_first_frame)) * l1_lambda
            g_loss = loss_function(outputs, real_labels) + reg_loss
            g_loss.backward()
            g_optim.step()

        n_updates += 1
        if (batch_index + 1) % 4 == 0:
            print("Epoch [%d/%d], Step[%d/%d], d_loss: %.4f, g_loss: %.4f, time: %4.4f"
                  % (current_epoch, num_epoch, batch_index + 1, num_batch, d_loss.item(), g_loss.item(),
                     time.time() - start_time))

        # Decay the learning rate
        if (batch_index + 1) % 6 == 0:
            lr = lr / 10.0
            for param_group in d_optim.param_groups:
                param_group['lr'] = lr
            for param_group in g_optim.param_groups:
                param_group['lr'] = lr
