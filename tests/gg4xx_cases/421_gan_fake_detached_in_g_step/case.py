# "My generator is not updating": fake.detach() was copied into the generator step too.
import torch
import torch.nn as nn

torch.manual_seed(0)
nz = 8


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(nz, 32), nn.ReLU(), nn.Linear(32, 16), nn.Tanh())

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x):
        return self.main(x)


netG, netD = Generator(), Discriminator()
criterion = nn.BCEWithLogitsLoss()
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
for i in range(3):
    real = torch.randn(10, 16)
    ones, zeros = torch.ones(10, 1), torch.zeros(10, 1)
    fake = netG(torch.randn(10, nz))
    # (1) update D
    optD.zero_grad()
    lossD = criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)
    lossD.backward()
    optD.step()
    # (2) update G
    optG.zero_grad()
    lossG = criterion(netD(fake.detach()), ones)
    lossG.backward()
    optG.step()
