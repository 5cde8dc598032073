"""A tiny GAN that learns to draw 'paintings': parabolic curves sampled at a
fixed set of points, in the spirit of the classic tutorial script."""
import torch
import torch.nn as nn

torch.manual_seed(1)

BATCH_SIZE = 64
LR_G = 1e-4
LR_D = 1e-4
N_IDEAS = 5
ART_COMPONENTS = 15
PAINT_POINTS = torch.linspace(-1, 1, ART_COMPONENTS).repeat(BATCH_SIZE, 1)


def artist_works():
    a = torch.empty(BATCH_SIZE, 1).uniform_(1, 2)
    return a * PAINT_POINTS.pow(2) + (a - 1)


G = nn.Sequential(
    nn.Linear(N_IDEAS, 128),
    nn.ReLU(),
    nn.Linear(128, ART_COMPONENTS),
)

D = nn.Sequential(
    nn.Linear(ART_COMPONENTS, 128),
    nn.ReLU(),
    nn.Linear(128, 1),
    nn.Sigmoid(),
)

opt_D = torch.optim.Adam(D.parameters(), lr=LR_D)
opt_G = torch.optim.Adam(G.parameters(), lr=LR_G)

for step in range(200):
    artist_paintings = artist_works()
    G_ideas = torch.randn(BATCH_SIZE, N_IDEAS)
    G_paintings = G(G_ideas)

    prob_artist1 = D(G_paintings)
    G_loss = torch.mean(torch.log(1.0 - prob_artist1))

    opt_G.zero_grad()
    G_loss.backward()
    opt_G.step()

    prob_artist0 = D(artist_paintings)
    prob_artist1 = D(G_paintings.detach())
    D_loss = -torch.mean(torch.log(prob_artist0) + torch.log(1.0 - prob_artist1))

    opt_D.zero_grad()
    D_loss.backward()
    opt_D.step()

    if step % 50 == 0:
        print(f"step {step}: D accuracy {prob_artist0.mean().item():.2f}  "
              f"D score {(-D_loss).item():.2f}")
