from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.optim as optim
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

opt = SimpleNamespace(upscale_factor=2, batchSize=4, nEpochs=2, lr=1e-4, seed=123,
                      patch_size=8, w1=1e-2, w3=1e-3)
torch.manual_seed(opt.seed)


class UpBlock(nn.Module):
    def __init__(self, ch, scale):
        super().__init__()
        k, s, p = 6, scale, 2
        self.up_conv1 = nn.ConvTranspose2d(ch, ch, k, s, p)
        self.up_conv2 = nn.Conv2d(ch, ch, k, s, p)
        self.up_conv3 = nn.ConvTranspose2d(ch, ch, k, s, p)
        self.act = nn.PReLU()

    def forward(self, x):
        h0 = self.act(self.up_conv1(x))
        l0 = self.act(self.up_conv2(h0))
        h1 = self.act(self.up_conv3(l0 - x))
        return h1 + h0


class DownBlock(nn.Module):
    def __init__(self, ch, scale):
        super().__init__()
        k, s, p = 6, scale, 2
        self.down_conv1 = nn.Conv2d(ch, ch, k, s, p)
        self.down_conv2 = nn.ConvTranspose2d(ch, ch, k, s, p)
        self.down_conv3 = nn.Conv2d(ch, ch, k, s, p)
        self.act = nn.PReLU()

    def forward(self, x):
        l0 = self.act(self.down_conv1(x))
        h0 = self.act(self.down_conv2(l0))
        l1 = self.act(self.down_conv3(h0 - x))
        return l1 + l0


class Net(nn.Module):
    def __init__(self, num_channels=3, base_filter=16, feat=32, scale_factor=2):
        super().__init__()
        self.feat0 = nn.Sequential(nn.Conv2d(num_channels, feat, 3, 1, 1), nn.PReLU())
        self.feat1 = nn.Sequential(nn.Conv2d(feat, base_filter, 1), nn.PReLU())
        self.up1 = UpBlock(base_filter, scale_factor)
        self.down1 = DownBlock(base_filter, scale_factor)
        self.up2 = UpBlock(base_filter, scale_factor)
        self.output_conv = nn.Conv2d(2 * base_filter, num_channels, 3, 1, 1)

    def forward(self, x):
        x = self.feat1(self.feat0(x))
        h1 = self.up1(x)
        h2 = self.up2(self.down1(h1))
        return self.output_conv(torch.cat((h2, h1), 1))


class Discriminator(nn.Module):
    def __init__(self, num_channels=3, base_filter=16, image_size=16):
        super().__init__()
        self.input_conv = nn.Conv2d(num_channels, base_filter, 3, 1, 1)
        self.conv_blocks = nn.Sequential(
            nn.Conv2d(base_filter, base_filter, 3, 2, 1), nn.BatchNorm2d(base_filter), nn.LeakyReLU(0.2),
            nn.Conv2d(base_filter, base_filter * 2, 3, 2, 1), nn.BatchNorm2d(base_filter * 2), nn.LeakyReLU(0.2))
        self.dense = nn.Linear(base_filter * 2 * (image_size // 4) ** 2, 1)

    def forward(self, x):
        out = self.conv_blocks(F.leaky_relu(self.input_conv(x), 0.2))
        return torch.sigmoid(self.dense(out.flatten(1))).view(-1)


def get_training_set(n=16):
    hr = torch.rand(n, 3, opt.patch_size * opt.upscale_factor, opt.patch_size * opt.upscale_factor)
    lr = F.avg_pool2d(hr, opt.upscale_factor)
    return TensorDataset(lr, hr)


training_data_loader = DataLoader(get_training_set(), batch_size=opt.batchSize, shuffle=True)
model = Net(num_channels=3, scale_factor=opt.upscale_factor)
D = Discriminator(num_channels=3, image_size=opt.patch_size * opt.upscale_factor)
MSE_loss = nn.MSELoss()
BCE_loss = nn.BCELoss()
optimizer = optim.Adam(model.parameters(), lr=opt.lr, betas=(0.9, 0.999), eps=1e-8)
D_optimizer = optim.Adam(D.parameters(), lr=opt.lr, betas=(0.9, 0.999), eps=1e-8)


def train(epoch):
    G_epoch_loss = 0
    D_epoch_loss = 0
    model.train()
    D.train()
    for iteration, batch in enumerate(training_data_loader, 1):
        input, target = batch[0], batch[1]
        minibatch = input.size()[0]
        real_label = torch.ones(minibatch)
        fake_label = torch.zeros(minibatch)

        D_optimizer.zero_grad()
        D_real_decision = D(target)
        D_real_loss = BCE_loss(D_real_decision, real_label)

        recon_image = model(input)
        D_fake_decision = D(recon_image)
        D_fake_loss = BCE_loss(D_fake_decision, fake_label)

        D_loss = D_real_loss + D_fake_loss
        D_loss.backward()
        D_optimizer.step()

        optimizer.zero_grad()
        D_fake_decision = D(recon_image)
        GAN_loss = opt.w3 * BCE_loss(D_fake_decision, real_label)
        mse_loss = opt.w1 * MSE_loss(recon_image, target)
        G_loss = mse_loss + GAN_loss
        G_loss.backward()
        optimizer.step()

        G_epoch_loss += G_loss.item()
        D_epoch_loss += D_loss.item()
        print("Epoch: [%2d] [%4d/%4d] G_loss: %.8f, D_loss: %.8f"
              % (epoch, iteration, len(training_data_loader), G_loss.item(), D_loss.item()))
    print("===> Epoch {} Complete: Avg. Loss G: {:.4f} D: {:.4f}".format(
        epoch, G_epoch_loss / len(training_data_loader), D_epoch_loss / len(training_data_loader)))


for epoch in range(1, opt.nEpochs + 1):
    train(epoch)
