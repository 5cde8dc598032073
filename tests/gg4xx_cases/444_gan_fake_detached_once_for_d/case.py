# A GAN done right: the detached fake is a separate name used only by the
# discriminator step; the generator step goes through the fake itself.
import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()
for step in range(3):
    real = torch.randn(12, 2)
    fake = G(torch.randn(12, 4))
    fake_for_d = fake.detach()
    d_loss = bce(D(real), torch.ones(12, 1)) + bce(D(fake_for_d), torch.zeros(12, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), torch.ones(12, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
