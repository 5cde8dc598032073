# The fake batch is generated under torch.no_grad() "since D must not train G", and the
# same batch feeds the generator loss: G never receives a gradient.
import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())
bce = nn.BCELoss()
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)


def train(steps=3, n=12):
    for step in range(steps):
        real = torch.randn(n, 2) * 0.5 + 1.0
        with torch.no_grad():
            fake = G(torch.randn(n, 4))
        d_loss = bce(D(real), torch.ones(n, 1)) + bce(D(fake), torch.zeros(n, 1))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        g_loss = bce(D(fake), torch.ones(n, 1))
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()


train()
