"""1-D GAN that learns to draw curves like a famous artist; D and G share one generator pass."""
import torch
import torch.nn as nn

torch.manual_seed(1)

BATCH_SIZE = 16
LR_G = 1e-4
LR_D = 1e-4
N_IDEAS = 5
ART_COMPONENTS = 15
PAINT_POINTS = torch.linspace(-1, 1, ART_COMPONENTS).repeat(BATCH_SIZE, 1)


def artist_works():
    a = torch.empty(BATCH_SIZE, 1).uniform_(1, 2)
    paintings = a * PAINT_POINTS.pow(2) + (a - 1)
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

for step in range(4):
    artist_paintings = artist_works()
    G_ideas = torch.randn(BATCH_SIZE, N_IDEAS)
    G_paintings = G(G_ideas)

    prob_artist0 = D(artist_paintings)
    prob_artist1 = D(G_paintings)
    D_loss = -torch.mean(torch.log(prob_artist0) + torch.log(1.0 - prob_artist1))

    opt_D.zero_grad()
    D_loss.backward(retain_graph=True)  # reusing the generator graph below
    opt_D.step()

    # score the same paintings again with the updated discriminator
    prob_artist1 = D(G_paintings)
    G_loss = torch.mean(torch.log(1.0 - prob_artist1))

    opt_G.zero_grad()
    G_loss.backward()
    opt_G.step()

    print(f"step {step}: D acc {prob_artist0.data.mean().item():.3f} D loss {D_loss.item():.4f} G loss {G_loss.item():.4f}")
