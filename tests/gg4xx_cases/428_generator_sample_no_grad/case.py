# The generator's sample() is decorated with @torch.no_grad() (for producing images), and
# the training loop uses it for the generator step as well.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self, nz=6):
        super().__init__()
        self.nz = nz
        self.net = nn.Sequential(nn.Linear(nz, 24), nn.ReLU(), nn.Linear(24, 8))

    def forward(self, z):
        return self.net(z)

    @torch.no_grad()
    def sample(self, n):
        return self(torch.randn(n, self.nz))


gen = Generator()
disc = nn.Sequential(nn.Linear(8, 24), nn.ReLU(), nn.Linear(24, 1))
g_opt = torch.optim.Adam(gen.parameters(), lr=2e-4)
d_opt = torch.optim.Adam(disc.parameters(), lr=2e-4)
for it in range(3):
    real = torch.randn(6, 8)
    fake = gen.sample(6)
    d_loss = torch.relu(1 - disc(real)).mean() + torch.relu(1 + disc(fake)).mean()
    d_opt.zero_grad()
    d_loss.backward()
    d_opt.step()
    g_loss = -disc(gen.sample(6)).mean()
    g_opt.zero_grad()
    g_loss.backward()
    g_opt.step()
