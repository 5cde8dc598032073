import torch
import torch.nn as nn

torch.manual_seed(0)
image_size, hidden_size, latent_size, batch_size = 64, 32, 16, 8

D = nn.Sequential(
    nn.Linear(image_size, hidden_size), nn.LeakyReLU(0.2),
    nn.Linear(hidden_size, hidden_size), nn.LeakyReLU(0.2),
    nn.Linear(hidden_size, 1), nn.Sigmoid())
G = nn.Sequential(
    nn.Linear(latent_size, hidden_size), nn.ReLU(),
    nn.Linear(hidden_size, hidden_size), nn.ReLU(),
    nn.Linear(hidden_size, image_size), nn.Tanh())

criterion = nn.BCELoss()
d_optimizer = torch.optim.Adam(D.parameters(), lr=2e-4)
g_optimizer = torch.optim.Adam(G.parameters(), lr=2e-4)


def reset_grad():
    d_optimizer.zero_grad()
    g_optimizer.zero_grad()


for i in range(4):
    images = torch.randn(batch_size, image_size)
    real_labels = torch.ones(batch_size, 1)
    fake_labels = torch.zeros(batch_size, 1)

    # ---- train the discriminator ----
    outputs = D(images)
    d_loss_real = criterion(outputs, real_labels)
    z = torch.randn(batch_size, latent_size)
    fake_images = G(z)
    outputs = D(fake_images)
    d_loss_fake = criterion(outputs, fake_labels)
    d_loss = d_loss_real + d_loss_fake
    reset_grad()
    d_loss.backward()
    d_optimizer.step()

    # ---- train the generator on a fresh batch of fakes ----
    z = torch.randn(batch_size, latent_size)
    fake_images = G(z)
    outputs = D(fake_images)
    g_loss = criterion(outputs, real_labels)
    reset_grad()
    g_loss.backward()
    g_optimizer.step()
    print(f"step {i}: d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f}")
