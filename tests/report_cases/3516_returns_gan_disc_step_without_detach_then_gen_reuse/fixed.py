"""GAN for synthetic financial return windows: the generator maps noise to a
window of 16 daily log-returns, the discriminator separates real windows
(heavy-tailed, volatility-clustered toy series) from generated ones."""
import torch
import torch.nn as nn

torch.manual_seed(0)
WIN, Z = 16, 8


def real_windows(n):
    vol = 0.01 * torch.exp(0.5 * torch.randn(n, 1))
    shocks = torch.distributions.StudentT(4.0).sample((n, WIN))
    return (vol * shocks).clamp(-0.1, 0.1) * 10


G = nn.Sequential(nn.Linear(Z, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, WIN))
D = nn.Sequential(nn.Linear(WIN, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1), nn.Sigmoid())
optimizer_G = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.999))
loss_func = nn.BCELoss()

for epoch in range(20):
    real_data = real_windows(64)
    real_labels, fake_labels = torch.ones(64, 1), torch.zeros(64, 1)

    # ---- discriminator ----
    D.zero_grad()
    fake_data = G(torch.randn(64, Z))
    # detach: the discriminator step must not backpropagate into (and free) G's graph
    d_loss = loss_func(D(real_data), real_labels) + loss_func(D(fake_data.detach()), fake_labels)
    d_loss.backward()
    optimizer_D.step()

    # ---- generator: reuse the batch generated above ----
    G.zero_grad()
    g_loss = loss_func(D(fake_data), real_labels)
    g_loss.backward()
    optimizer_G.step()

    if epoch % 5 == 0:
        print(f"epoch {epoch} d_loss {d_loss.item():.3f} g_loss {g_loss.item():.3f}")
