"""WGAN-GP on a 2-D ring: several critic updates with a gradient penalty per generator update."""
import torch

from losses import gradient_penalty
from model import Critic, Generator

torch.manual_seed(0)
Z, LAMBDA_GP, N_CRITIC, BATCH = 4, 10.0, 3, 32

gen, critic = Generator(Z), Critic()
opt_gen = torch.optim.Adam(gen.parameters(), lr=1e-4, betas=(0.0, 0.9))
opt_critic = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.0, 0.9))
history = {"critic": [], "gen": [], "gp": []}


def sample_real(n):
    angle = torch.rand(n) * 6.2832
    return torch.stack([angle.cos(), angle.sin()], dim=1) + 0.05 * torch.randn(n, 2)


for it in range(12):
    for _ in range(N_CRITIC):
        real = sample_real(BATCH)
        noise = torch.randn(BATCH, Z)
        fake = gen(noise).detach()
        critic_real = critic(real).reshape(-1)
        critic_fake = critic(fake).reshape(-1)
        gp = gradient_penalty(critic, real, fake)
        loss_critic = -(torch.mean(critic_real) - torch.mean(critic_fake)) + LAMBDA_GP * gp
        opt_critic.zero_grad()
        loss_critic.backward()
        opt_critic.step()
        history["gp"].append(gp.item())

    gen_fake = critic(gen(torch.randn(BATCH, Z))).reshape(-1)
    loss_gen = -torch.mean(gen_fake)
    opt_gen.zero_grad()
    loss_gen.backward()
    opt_gen.step()
    history["critic"].append(loss_critic.item())
    history["gen"].append(loss_gen.item())

print({k: round(sum(v) / len(v), 4) for k, v in history.items()})
