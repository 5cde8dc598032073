# WGAN-GP: the interpolates are detached from G and made leaves that require grad, for
# the gradient penalty; the generator step goes through the fake.
import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
C = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.0, 0.9))
opt_c = torch.optim.Adam(C.parameters(), lr=1e-4, betas=(0.0, 0.9))
for it in range(3):
    real = torch.randn(8, 3)
    fake = G(torch.randn(8, 4))
    eps = torch.rand(8, 1)
    interp = (eps * real + (1 - eps) * fake.detach()).requires_grad_(True)
    grads = torch.autograd.grad(C(interp).sum(), interp, create_graph=True)[0]
    gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
    loss_c = C(fake.detach()).mean() - C(real).mean() + 10 * gp
    opt_c.zero_grad()
    loss_c.backward()
    opt_c.step()
    loss_g = -C(G(torch.randn(8, 4))).mean()
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
