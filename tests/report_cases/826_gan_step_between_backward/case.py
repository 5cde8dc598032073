"""Vanilla GAN fitting sin curves (MorvanZhou PyTorch-Tutorial 406_GAN layout)."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
BATCH_SIZE, N_IDEAS, ART_COMPONENTS = 32, 5, 15
PAINT_POINTS = torch.linspace(-1, 1, ART_COMPONENTS).repeat(BATCH_SIZE, 1)


def artist_works():
    a = torch.rand(BATCH_SIZE, 1) + 1
    return a * torch.sin(PAINT_POINTS * math.pi) + (a - 1)


G = nn.Sequential(nn.Linear(N_IDEAS, 64), nn.ReLU(), nn.Linear(64, ART_COMPONENTS))
D = nn.Sequential(nn.Linear(ART_COMPONENTS, 64), nn.ReLU(), nn.Linear(64, 1), nn.Sigmoid())
opt_D = torch.optim.Adam(D.parameters(), lr=1e-4)
opt_G = torch.optim.Adam(G.parameters(), lr=1e-4)

for step in range(5):
    artist_paintings = artist_works()
    G_ideas = torch.randn(BATCH_SIZE, N_IDEAS)
    G_paintings = G(G_ideas)
    prob_artist0 = D(artist_paintings)
    prob_artist1 = D(G_paintings)

    D_loss = -torch.mean(torch.log(prob_artist0) + torch.log(1. - prob_artist1))
    G_loss = torch.mean(torch.log(1. - prob_artist1))

    opt_D.zero_grad()
    D_loss.backward(retain_graph=True)
    opt_D.step()

    opt_G.zero_grad()
    G_loss.backward()
    opt_G.step()
    print(step, D_loss.item(), G_loss.item())
