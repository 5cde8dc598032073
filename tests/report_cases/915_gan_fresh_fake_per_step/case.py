"""Vanilla GAN on 2-D points; each phase draws its own generator sample."""
import torch
import torch.nn as nn

latent_size, hidden_size, data_size, batch_size = 4, 32, 2, 16

D = nn.Sequential(
    nn.Linear(data_size, hidden_size), nn.LeakyReLU(0.2),
    nn.Linear(hidden_size, 1), nn.Sigmoid())
G = nn.Sequential(
    nn.Linear(latent_size, hidden_size), nn.ReLU(),
    nn.Linear(hidden_size, data_size))

criterion = nn.BCELoss()
d_optimizer = torch.optim.Adam(D.parameters(), lr=2e-4)
g_optimizer = torch.optim.Adam(G.parameters(), lr=2e-4)

torch.manual_seed(0)
for step in range(4):
    points = torch.randn(batch_size, data_size) * 0.3 + torch.tensor([1.0, -1.0])
    real_labels = torch.ones(batch_size, 1)
    fake_labels = torch.zeros(batch_size, 1)

    # ---- train the discriminator
    outputs = D(points)
    d_loss_real = criterion(outputs, real_labels)
    z = torch.randn(batch_size, latent_size)
    fake_points = G(z)
    outputs = D(fake_points)
    d_loss_fake = criterion(outputs, fake_labels)
    d_loss = d_loss_real + d_loss_fake
    d_optimizer.zero_grad()
    g_optimizer.zero_grad()
    d_loss.backward()
    d_optimizer.step()

    # ---- train the generator
    z = torch.randn(batch_size, latent_size)
    fake_points = G(z)
    outputs = D(fake_points)
    g_loss = criterion(outputs, real_labels)
    d_optimizer.zero_grad()
    g_optimizer.zero_grad()
    g_loss.backward()
    g_optimizer.step()
    print(step, round(d_loss.item(), 4), round(g_loss.item(), 4))
