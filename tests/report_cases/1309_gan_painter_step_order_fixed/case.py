"""
Toy GAN: a 'newbie' generator learns to paint curves like a famous artist.
(Adapted tutorial script; numpy replaced by torch ops.)
"""
import torch
import torch.nn as nn

torch.manual_seed(1)

# Hyper Parameters
BATCH_SIZE = 32
LR_G = 0.0001
LR_D = 0.0001
N_IDEAS = 5
ART_COMPONENTS = 15
STEPS = 5
PAINT_POINTS = torch.linspace(-1, 1, ART_COMPONENTS).repeat(BATCH_SIZE, 1)


def artist_works():
    a = torch.rand(BATCH_SIZE, 1) + 1.0
    paintings = a * PAINT_POINTS.pow(2) + (a - 1)
    return paintings


G = nn.Sequential(
    nn.Linear(N_IDEAS, 64),
    nn.ReLU(),
    nn.Linear(64, ART_COMPONENTS),
)

D = nn.Sequential(
    nn.Linear(ART_COMPONENTS, 64),
    nn.ReLU(),
    nn.Linear(64, 1),
    nn.Sigmoid(),
)

opt_D = torch.optim.Adam(D.parameters(), lr=LR_D)
opt_G = torch.optim.Adam(G.parameters(), lr=LR_G)

log = []
for step in range(STEPS):
    artist_paintings = artist_works()
    G_ideas = torch.randn(BATCH_SIZE, N_IDEAS)
    G_paintings = G(G_ideas)

    prob_artist0 = D(artist_paintings)
    prob_artist1 = D(G_paintings.detach())

    D_loss = -torch.mean(torch.log(prob_artist0) + torch.log(1. - prob_artist1))

    opt_D.zero_grad()
    D_loss.backward()
    opt_D.step()

    prob_artist1 = D(G_paintings)
    G_loss = torch.mean(torch.log(1. - prob_artist1))

    opt_G.zero_grad()
    G_loss.backward()
    opt_G.step()

    log.append((step, prob_artist0.mean().item(), -D_loss.item()))
    if step % 2 == 0:
        print("step %d  D accuracy=%.2f  score=%.2f" % log[-1])
