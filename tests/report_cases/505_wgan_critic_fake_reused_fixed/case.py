import torch

from critic import critic_step
from models import Discriminator, Generator

torch.manual_seed(0)
LATENT, IMG, BATCH, N_CRITIC, CLIP = 16, 64, 8, 3, 0.01

generator = Generator(LATENT, IMG)
discriminator = Discriminator(IMG)
optimizer_G = torch.optim.RMSprop(generator.parameters(), lr=5e-5)
optimizer_D = torch.optim.RMSprop(discriminator.parameters(), lr=5e-5)
data = [torch.randn(BATCH, IMG) for _ in range(2 * N_CRITIC)]

for epoch in range(1):
    data_iter = iter(data)
    for i in range(len(data) // N_CRITIC):
        for _ in range(N_CRITIC):
            real_imgs = next(data_iter)
            d_loss, fake_imgs = critic_step(generator, discriminator, optimizer_D,
                                            real_imgs, LATENT, CLIP)

        # -----------------
        #  Train Generator
        # -----------------
        optimizer_G.zero_grad()
        z = torch.randn(BATCH, LATENT)
        gen_imgs = generator(z)
        gen_validity = discriminator(gen_imgs)
        g_loss = -torch.mean(gen_validity)
        g_loss.backward()
        optimizer_G.step()
        print(f"[Epoch {epoch}] [Batch {i}] [D loss: {d_loss:.4f}] [G loss: {g_loss.item():.4f}]")
