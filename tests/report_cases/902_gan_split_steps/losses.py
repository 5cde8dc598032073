"""Non-saturating GAN losses."""
import torch
import torch.nn.functional as F


def discriminator_loss(disc, real, fake):
    real_logits = disc(real)
    fake_logits = disc(fake)
    loss_real = F.binary_cross_entropy_with_logits(real_logits, torch.ones_like(real_logits))
    loss_fake = F.binary_cross_entropy_with_logits(fake_logits, torch.zeros_like(fake_logits))
    return 0.5 * (loss_real + loss_fake)


def generator_loss(disc, fake):
    logits = disc(fake)
    return F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits))


def discriminator_accuracy(disc, real, fake):
    with torch.no_grad():
        real_ok = (disc(real) > 0).float().mean()
        fake_ok = (disc(fake) < 0).float().mean()
    return 0.5 * (real_ok + fake_ok).item()
