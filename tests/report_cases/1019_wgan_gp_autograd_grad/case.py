import torch
import torch.nn as nn
from torch import autograd

DIM, OUT, BATCH_SIZE, LAMBDA, CRITIC_ITERS, ITERS = 32, 2, 16, 0.1, 3, 4


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(OUT, DIM), nn.ReLU(True),
            nn.Linear(DIM, DIM), nn.ReLU(True),
            nn.Linear(DIM, OUT),
        )

    def forward(self, noise, real_data):
        return self.main(noise) + real_data.mean(0, keepdim=True) * 0.0


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Linear(OUT, DIM), nn.ReLU(True),
            nn.Linear(DIM, DIM), nn.ReLU(True),
            nn.Linear(DIM, 1),
        )

    def forward(self, inputs):
        return self.main(inputs).view(-1)


def inf_train_gen():
    centers = torch.tensor([[2.0, 0.0], [-2.0, 0.0], [0.0, 2.0], [0.0, -2.0]])
    while True:
        idx = torch.randint(0, 4, (BATCH_SIZE,))
        yield centers[idx] + 0.05 * torch.randn(BATCH_SIZE, 2)


def calc_gradient_penalty(netD, real_data, fake_data):
    alpha = torch.rand(BATCH_SIZE, 1).expand(real_data.size())
    interpolates = alpha * real_data + ((1 - alpha) * fake_data)
    interpolates.requires_grad_(True)
    disc_interpolates = netD(interpolates)
    gradients = autograd.grad(outputs=disc_interpolates, inputs=interpolates,
                              grad_outputs=torch.ones(disc_interpolates.size()),
                              create_graph=True, retain_graph=True, only_inputs=True)[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean() * LAMBDA


netG, netD = Generator(), Discriminator()
optimizerD = torch.optim.Adam(netD.parameters(), lr=1e-4, betas=(0.5, 0.9))
optimizerG = torch.optim.Adam(netG.parameters(), lr=1e-4, betas=(0.5, 0.9))
one = torch.tensor(1.0)
mone = one * -1

torch.manual_seed(0)
data = inf_train_gen()
for iteration in range(ITERS):
    ############################
    # (1) Update D network
    ###########################
    for p in netD.parameters():
        p.requires_grad = True

    for iter_d in range(CRITIC_ITERS):
        real_data_v = next(data)
        netD.zero_grad()

        D_real = netD(real_data_v).mean()
        D_real.backward(mone)

        noise = torch.randn(BATCH_SIZE, 2)
        with torch.no_grad():
            fake = netG(noise, real_data_v)
        D_fake = netD(fake).mean()
        D_fake.backward(one)

        gradient_penalty = calc_gradient_penalty(netD, real_data_v, fake)
        gradient_penalty.backward()

        D_cost = D_fake - D_real + gradient_penalty
        Wasserstein_D = D_real - D_fake
        optimizerD.step()

    ############################
    # (2) Update G network
    ###########################
    for p in netD.parameters():
        p.requires_grad = False
    netG.zero_grad()

    real_data_v = next(data)
    noise = torch.randn(BATCH_SIZE, 2)
    fake = netG(noise, real_data_v)
    G = netD(fake).mean()
    G.backward(mone)
    G_cost = -G
    optimizerG.step()

    print(f"iter {iteration}: D_cost {D_cost.item():.4f} G_cost {G_cost.item():.4f} W_D {Wasserstein_D.item():.4f}")
