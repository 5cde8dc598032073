"""WGAN-GP on a 2-D mixture of Gaussians. The critic scores real and fake
samples in separate forward passes; the real term, the fake term and the
gradient penalty are backpropagated one after another."""
import math
import torch
import torch.nn as nn

torch.manual_seed(0)
NZ, BATCH, LAMBDA, N_CRITIC = 4, 128, 10.0, 3


def real_samples(n):
    k = torch.randint(0, 8, (n,)).float()
    centers = torch.stack([torch.cos(k * math.pi / 4), torch.sin(k * math.pi / 4)], dim=1) * 2
    return centers + 0.05 * torch.randn(n, 2)


G = nn.Sequential(nn.Linear(NZ, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
D = nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2), nn.Linear(64, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
optD = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.5, 0.9))
optG = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.5, 0.9))


def gradient_penalty(real, fake):
    alpha = torch.rand(real.size(0), 1)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = D(interp)
    grads = torch.autograd.grad(out.sum(), interp, create_graph=True)[0]
    return LAMBDA * ((grads.norm(2, dim=1) - 1) ** 2).mean()


for i in range(30):
    for _ in range(N_CRITIC):
        real = real_samples(BATCH)
        with torch.no_grad():
            fake = G(torch.randn(BATCH, NZ))
        D.zero_grad()
        errD_real = -D(real).mean()
        errD_real.backward()
        errD_fake = D(fake).mean()
        errD_fake.backward()
        grad_penalty = gradient_penalty(real, fake)
        grad_penalty.backward()
        optD.step()

    G.zero_grad()
    errG = -D(G(torch.randn(BATCH, NZ))).mean()
    errG.backward()
    optG.step()
    if i % 10 == 0:
        w_dist = -(errD_real + errD_fake).item()
        print(f"iter {i}: W-distance {w_dist:.3f} gp {grad_penalty.item():.3f} G {errG.item():.3f}")
