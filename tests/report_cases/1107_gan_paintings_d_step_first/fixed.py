"""A GAN that learns to 'paint' sine curves (406_GAN tutorial style)."""
import torch
import torch.nn as nn

torch.manual_seed(1)

# Hyper Parameters
BATCH_SIZE = 64
LR_G = 0.0001
LR_D = 0.0001
N_IDEAS = 5
ART_COMPONENTS = 15
PAINT_POINTS = torch.linspace(-1, 1, ART_COMPONENTS).repeat(BATCH_SIZE, 1)


def artist_works():
    a = torch.rand(BATCH_SIZE, 1) + 1
    paintings = a * torch.sin(PAINT_POINTS * torch.pi) + 0.02 * torch.randn(1, ART_COMPONENTS)
    return paintings


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

for step in range(20):
    artist_paintings = artist_works()
    G_ideas = torch.randn(BATCH_SIZE, N_IDEAS)
    G_paintings = G(G_ideas)

    prob_artist0 = D(artist_paintings)
    prob_artist1 = D(G_paintings.detach())
    D_loss = -torch.mean(torch.log(prob_artist0) + torch.log(1. - prob_artist1))

    opt_D.zero_grad()
    D_loss.backward()
    opt_D.step()

    # score the paintings again with the updated discriminator
    G_loss = torch.mean(torch.log(1. - D(G_paintings)))
    opt_G.zero_grad()
    G_loss.backward()
    opt_G.step()

    if step % 5 == 0:
        print(step, f"D accuracy {prob_artist0.data.mean():.2f}", f"D score {-D_loss.item():.3f}")
