# WGAN port of old code: the generator loss is computed on fake.data, which is cut
# from the generator's graph.
import torch
import torch.nn as nn

torch.manual_seed(0)
netG = nn.Sequential(nn.Linear(5, 20), nn.ReLU(), nn.Linear(20, 3))
netC = nn.Sequential(nn.Linear(3, 20), nn.ReLU(), nn.Linear(20, 1))
optC = torch.optim.RMSprop(netC.parameters(), lr=5e-5)
optG = torch.optim.RMSprop(netG.parameters(), lr=5e-5)
for gen_iter in range(3):
    for _ in range(2):
        real = torch.randn(16, 3)
        fake = netG(torch.randn(16, 5))
        lossC = netC(fake.data).mean() - netC(real).mean()
        optC.zero_grad()
        lossC.backward()
        optC.step()
        for p in netC.parameters():
            p.data.clamp_(-0.01, 0.01)
    fake = netG(torch.randn(16, 5))
    lossG = -netC(fake.data).mean()
    optG.zero_grad()
    lossG.backward()
    optG.step()
