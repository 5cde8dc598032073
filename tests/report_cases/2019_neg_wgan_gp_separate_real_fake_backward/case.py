"""WGAN-GP (pytorch-wgan style): critic trained with d_loss_real.backward(mone),
d_loss_fake.backward(one), gradient_penalty.backward() on separate forwards."""
import torch
import torch.nn as nn
from torch import autograd
from torch.autograd import Variable


class Generator(torch.nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.main_module = nn.Sequential(
            nn.ConvTranspose2d(in_channels=16, out_channels=16, kernel_size=4, stride=1, padding=0),
            nn.BatchNorm2d(num_features=16), nn.ReLU(True),
            nn.ConvTranspose2d(in_channels=16, out_channels=8, kernel_size=4, stride=2, padding=1),
            nn.BatchNorm2d(num_features=8), nn.ReLU(True),
            nn.ConvTranspose2d(in_channels=8, out_channels=channels, kernel_size=4, stride=2, padding=1))
        self.output = nn.Tanh()

    def forward(self, x):
        return self.output(self.main_module(x))


class Discriminator(torch.nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.main_module = nn.Sequential(
            nn.Conv2d(in_channels=channels, out_channels=8, kernel_size=4, stride=2, padding=1),
            nn.InstanceNorm2d(8, affine=True), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(in_channels=8, out_channels=16, kernel_size=4, stride=2, padding=1),
            nn.InstanceNorm2d(16, affine=True), nn.LeakyReLU(0.2, inplace=True))
        self.output = nn.Sequential(nn.Conv2d(in_channels=16, out_channels=1, kernel_size=4, stride=1, padding=0))

    def forward(self, x):
        return self.output(self.main_module(x))


class WGAN_GP(object):
    def __init__(self, channels=1, batch_size=4, generator_iters=3):
        self.G = Generator(channels)
        self.D = Discriminator(channels)
        self.C = channels
        self.learning_rate = 1e-4
        self.b1, self.b2 = 0.5, 0.999
        self.batch_size = batch_size
        self.d_optimizer = torch.optim.Adam(self.D.parameters(), lr=self.learning_rate, betas=(self.b1, self.b2))
        self.g_optimizer = torch.optim.Adam(self.G.parameters(), lr=self.learning_rate, betas=(self.b1, self.b2))
        self.generator_iters = generator_iters
        self.critic_iter = 2
        self.lambda_term = 10

    def train(self, train_loader):
        one = torch.tensor(1, dtype=torch.float)
        mone = one * -1
        for g_iter in range(self.generator_iters):
            for p in self.D.parameters():
                p.requires_grad = True

            d_loss_real = 0
            d_loss_fake = 0
            Wasserstein_D = 0
            for d_iter in range(self.critic_iter):
                self.D.zero_grad()
                images = train_loader[(g_iter + d_iter) % len(train_loader)]
                z = torch.rand((self.batch_size, 16, 1, 1))
                images, z = Variable(images), Variable(z)

                # Train discriminator: WGAN - Training discriminator more iterations than generator
                d_loss_real = self.D(images)
                d_loss_real = d_loss_real.mean()
                d_loss_real.backward(mone)

                fake_images = self.G(z)
                d_loss_fake = self.D(fake_images)
                d_loss_fake = d_loss_fake.mean()
                d_loss_fake.backward(one)

                gradient_penalty = self.calculate_gradient_penalty(images.data, fake_images.data)
                gradient_penalty.backward()

                d_loss = d_loss_fake - d_loss_real + gradient_penalty
                Wasserstein_D = d_loss_real - d_loss_fake
                self.d_optimizer.step()
                print(f'  Discriminator iteration: {d_iter}/{self.critic_iter}, '
                      f'loss_fake: {d_loss_fake.item():.4f}, loss_real: {d_loss_real.item():.4f}')

            # Generator update
            for p in self.D.parameters():
                p.requires_grad = False
            self.G.zero_grad()
            z = Variable(torch.randn(self.batch_size, 16, 1, 1))
            fake_images = self.G(z)
            g_loss = self.D(fake_images)
            g_loss = g_loss.mean()
            g_loss.backward(mone)
            g_cost = -g_loss
            self.g_optimizer.step()
            print(f'Generator iteration: {g_iter}/{self.generator_iters}, g_loss: {g_cost.item():.4f}, '
                  f'W_D: {Wasserstein_D.item():.4f}, d_loss: {d_loss.item():.4f}')

    def calculate_gradient_penalty(self, real_images, fake_images):
        eta = torch.FloatTensor(self.batch_size, 1, 1, 1).uniform_(0, 1)
        eta = eta.expand(self.batch_size, real_images.size(1), real_images.size(2), real_images.size(3))
        interpolated = eta * real_images + ((1 - eta) * fake_images)
        interpolated = Variable(interpolated, requires_grad=True)
        prob_interpolated = self.D(interpolated)
        gradients = autograd.grad(outputs=prob_interpolated, inputs=interpolated,
                                  grad_outputs=torch.ones(prob_interpolated.size()),
                                  create_graph=True, retain_graph=True)[0]
        grad_penalty = ((gradients.norm(2, dim=1) - 1) ** 2).mean() * self.lambda_term
        return grad_penalty


if __name__ == '__main__':
    torch.manual_seed(0)
    loader = [torch.rand(4, 1, 16, 16) * 2 - 1 for _ in range(3)]
    WGAN_GP().train(loader)
