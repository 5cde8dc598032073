"""Alternating GAN training: one discriminator update, then one generator update."""
import torch

from model import build_generator, build_discriminator, sample_noise, DATA
from losses import discriminator_loss, generator_loss


def train(steps=4, batch=8):
    gen = build_generator()
    disc = build_discriminator()
    opt_g = torch.optim.Adam(gen.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(disc.parameters(), lr=2e-4, betas=(0.5, 0.999))

    for step in range(steps):
        real = torch.randn(batch, DATA) * 0.5 + 1.0
        fake = gen(sample_noise(batch))

        # discriminator update
        opt_d.zero_grad()
        d_loss = discriminator_loss(disc, real, fake.detach())
        d_loss.backward()
        opt_d.step()

        # generator update
        opt_g.zero_grad()
        g_loss = generator_loss(disc, fake)
        g_loss.backward()
        opt_g.step()
        print(f"step {step} d={d_loss.item():.3f} g={g_loss.item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train()
