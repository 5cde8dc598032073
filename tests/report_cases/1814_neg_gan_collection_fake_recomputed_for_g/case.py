import time

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


def initialize_weights(net):
    for m in net.modules():
        if isinstance(m, (nn.Conv2d, nn.ConvTranspose2d, nn.Linear)):
            m.weight.data.normal_(0, 0.02)
            m.bias.data.zero_()


class generator(nn.Module):
    def __init__(self, input_dim=32, output_dim=1, input_size=16):
        super().__init__()
        self.input_size = input_size
        self.fc = nn.Sequential(
            nn.Linear(input_dim, 256), nn.BatchNorm1d(256), nn.ReLU(),
            nn.Linear(256, 64 * (input_size // 4) * (input_size // 4)),
            nn.BatchNorm1d(64 * (input_size // 4) * (input_size // 4)), nn.ReLU())
        self.deconv = nn.Sequential(
            nn.ConvTranspose2d(64, 32, 4, 2, 1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.ConvTranspose2d(32, output_dim, 4, 2, 1), nn.Tanh())
        initialize_weights(self)

    def forward(self, input):
        x = self.fc(input)
        x = x.view(-1, 64, self.input_size // 4, self.input_size // 4)
        return self.deconv(x)


class discriminator(nn.Module):
    def __init__(self, input_dim=1, output_dim=1, input_size=16):
        super().__init__()
        self.input_size = input_size
        self.conv = nn.Sequential(
            nn.Conv2d(input_dim, 32, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(32, 64, 4, 2, 1), nn.BatchNorm2d(64), nn.LeakyReLU(0.2))
        self.fc = nn.Sequential(
            nn.Linear(64 * (input_size // 4) * (input_size // 4), 256), nn.BatchNorm1d(256), nn.LeakyReLU(0.2),
            nn.Linear(256, output_dim), nn.Sigmoid())
        initialize_weights(self)

    def forward(self, input):
        x = self.conv(input)
        x = x.view(-1, 64 * (self.input_size // 4) * (self.input_size // 4))
        return self.fc(x)


class GAN(object):
    def __init__(self, epoch=2, batch_size=16, input_size=16, z_dim=32, lrG=2e-4, lrD=2e-4):
        self.epoch = epoch
        self.batch_size = batch_size
        self.input_size = input_size
        self.z_dim = z_dim
        images = torch.rand(96, 1, input_size, input_size) * 2 - 1
        self.data_loader = DataLoader(TensorDataset(images), batch_size=batch_size, shuffle=True, drop_last=True)

        self.G = generator(input_dim=self.z_dim, output_dim=1, input_size=self.input_size)
        self.D = discriminator(input_dim=1, output_dim=1, input_size=self.input_size)
        self.G_optimizer = optim.Adam(self.G.parameters(), lr=lrG, betas=(0.5, 0.999))
        self.D_optimizer = optim.Adam(self.D.parameters(), lr=lrD, betas=(0.5, 0.999))
        self.BCE_loss = nn.BCELoss()
        self.sample_z_ = torch.rand((self.batch_size, self.z_dim))

    def train(self):
        self.train_hist = {"D_loss": [], "G_loss": [], "per_epoch_time": []}
        self.y_real_, self.y_fake_ = torch.ones(self.batch_size, 1), torch.zeros(self.batch_size, 1)
        self.D.train()
        for epoch in range(self.epoch):
            self.G.train()
            epoch_start_time = time.time()
            for iter, (x_,) in enumerate(self.data_loader):
                z_ = torch.rand((self.batch_size, self.z_dim))

                # update D network
                self.D_optimizer.zero_grad()
                D_real = self.D(x_)
                D_real_loss = self.BCE_loss(D_real, self.y_real_)
                G_ = self.G(z_)
                D_fake = self.D(G_)
                D_fake_loss = self.BCE_loss(D_fake, self.y_fake_)
                D_loss = D_real_loss + D_fake_loss
                self.train_hist["D_loss"].append(D_loss.item())
                D_loss.backward()
                self.D_optimizer.step()

                # update G network
                self.G_optimizer.zero_grad()
                G_ = self.G(z_)
                D_fake = self.D(G_)
                G_loss = self.BCE_loss(D_fake, self.y_real_)
                self.train_hist["G_loss"].append(G_loss.item())
                G_loss.backward()
                self.G_optimizer.step()

                if (iter + 1) % 3 == 0:
                    print("Epoch: [%2d] [%4d/%4d] D_loss: %.8f, G_loss: %.8f" %
                          ((epoch + 1), (iter + 1), len(self.data_loader), D_loss.item(), G_loss.item()))
            self.train_hist["per_epoch_time"].append(time.time() - epoch_start_time)
            with torch.no_grad():
                self.G.eval()
                samples = self.G(self.sample_z_)
            print("epoch %d mean sample %.4f" % (epoch + 1, float(np.mean(samples.numpy()))))


if __name__ == "__main__":
    torch.manual_seed(0)
    gan = GAN()
    gan.train()
