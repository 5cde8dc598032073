import torch


def critic_step(generator, discriminator, optimizer_D, real_imgs, latent_dim, clip_value):
    """One WGAN critic update; returns the loss and the generated batch."""
    optimizer_D.zero_grad()
    z = torch.randn(real_imgs.shape[0], latent_dim)
    fake_imgs = generator(z).detach()  # the critic step must not touch G's graph

    real_validity = discriminator(real_imgs)
    fake_validity = discriminator(fake_imgs)
    d_loss = -torch.mean(real_validity) + torch.mean(fake_validity)
    d_loss.backward()
    optimizer_D.step()

    for p in discriminator.parameters():
        p.data.clamp_(-clip_value, clip_value)
    return d_loss.item(), fake_imgs
