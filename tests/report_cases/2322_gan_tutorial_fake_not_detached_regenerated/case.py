"""Vanilla GAN on flattened 28x28 images (yunjey/pytorch-tutorial layout),
with random tensors standing in for MNIST."""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--num_epochs", type=int, default=2)
parser.add_argument("--batch_size", type=int, default=32)
parser.add_argument("--latent_size", type=int, default=64)
parser.add_argument("--hidden_size", type=int, default=128)
parser.add_argument("--image_size", type=int, default=784)
args = parser.parse_args()

torch.manual_seed(0)
data = torch.rand(4 * args.batch_size, args.image_size) * 2 - 1
data_loader = [(data[i:i + args.batch_size], None) for i in range(0, len(data), args.batch_size)]

D = nn.Sequential(
    nn.Linear(args.image_size, args.hidden_size), nn.LeakyReLU(0.2),
    nn.Linear(args.hidden_size, args.hidden_size), nn.LeakyReLU(0.2),
    nn.Linear(args.hidden_size, 1), nn.Sigmoid())
G = nn.Sequential(
    nn.Linear(args.latent_size, args.hidden_size), nn.ReLU(),
    nn.Linear(args.hidden_size, args.hidden_size), nn.ReLU(),
    nn.Linear(args.hidden_size, args.image_size), nn.Tanh())

criterion = nn.BCELoss()
d_optimizer = torch.optim.Adam(D.parameters(), lr=0.0002)
g_optimizer = torch.optim.Adam(G.parameters(), lr=0.0002)


def reset_grad():
    d_optimizer.zero_grad()
    g_optimizer.zero_grad()


total_step = len(data_loader)
for epoch in range(args.num_epochs):
    for i, (images, _) in enumerate(data_loader):
        images = images.reshape(args.batch_size, -1)
        real_labels = torch.ones(args.batch_size, 1)
        fake_labels = torch.zeros(args.batch_size, 1)

        # ================================================================== #
        #                      Train the discriminator                       #
        # ================================================================== #
        outputs = D(images)
        d_loss_real = criterion(outputs, real_labels)
        real_score = outputs

        z = torch.randn(args.batch_size, args.latent_size)
        fake_images = G(z)
        outputs = D(fake_images)
        d_loss_fake = criterion(outputs, fake_labels)
        fake_score = outputs

        d_loss = d_loss_real + d_loss_fake
        reset_grad()
        d_loss.backward()
        d_optimizer.step()

        # ================================================================== #
        #                        Train the generator                         #
        # ================================================================== #
        z = torch.randn(args.batch_size, args.latent_size)
        fake_images = G(z)
        outputs = D(fake_images)
        g_loss = criterion(outputs, real_labels)

        reset_grad()
        g_loss.backward()
        g_optimizer.step()

        if (i + 1) % 2 == 0:
            print("Epoch [{}/{}], Step [{}/{}], d_loss: {:.4f}, g_loss: {:.4f}, D(x): {:.2f}, D(G(z)): {:.2f}"
                  .format(epoch, args.num_epochs, i + 1, total_step, d_loss.item(), g_loss.item(),
                          real_score.mean().item(), fake_score.mean().item()))
