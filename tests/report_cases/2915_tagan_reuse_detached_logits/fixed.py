"""Text-adaptive GAN (TAGAN-like) for text-guided image manipulation on toy data. To save a
generator pass, one fake batch and one discriminator pass are shared by the D and G updates."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
TXT_DIM, IMG = 8, 3 * 8 * 8


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(IMG, 32), nn.ReLU())
        self.fuse = nn.Linear(32 + TXT_DIM, 32)
        self.dec = nn.Sequential(nn.ReLU(), nn.Linear(32, IMG), nn.Tanh())

    def forward(self, img, txt):
        return self.dec(self.fuse(torch.cat([self.enc(img.flatten(1)), txt], 1))).view_as(img)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.img = nn.Sequential(nn.Linear(IMG, 32), nn.LeakyReLU(0.2))
        self.uncond = nn.Linear(32, 1)
        self.cond = nn.Linear(32 + TXT_DIM, 1)

    def forward(self, img, txt):
        h = self.img(img.flatten(1))
        return self.uncond(h), self.cond(torch.cat([h, txt], 1))


G, D = Generator(), Discriminator()
g_optimizer = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
d_optimizer = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
ones, zeros = torch.ones(4, 1), torch.zeros(4, 1)

for it in range(4):
    img = torch.rand(4, 3, 8, 8) * 2 - 1
    txt_m = torch.randn(4, TXT_DIM)        # matching description
    txt_mis = txt_m[torch.randperm(4)]     # mismatching description

    # UPDATE DISCRIMINATOR
    D.zero_grad()
    real_logit, real_c = D(img, txt_m)
    _, mis_c = D(img, txt_mis)
    real_loss = F.binary_cross_entropy_with_logits(real_logit, ones) \
        + F.binary_cross_entropy_with_logits(real_c, ones) + F.binary_cross_entropy_with_logits(mis_c, zeros)
    fake = G(img, txt_m)
    fake_logit, fake_c = D(fake.detach(), txt_m)
    fake_loss = F.binary_cross_entropy_with_logits(fake_logit, zeros)
    (real_loss + fake_loss).backward()
    d_optimizer.step()

    # UPDATE GENERATOR (one G pass is enough, but D must score the non-detached fake again)
    G.zero_grad()
    fake_logit, fake_c = D(fake, txt_m)
    g_loss = F.binary_cross_entropy_with_logits(fake_logit, ones) \
        + F.binary_cross_entropy_with_logits(fake_c, ones) + 0.1 * F.l1_loss(fake, img)
    g_loss.backward()
    g_optimizer.step()
    print(f"it {it} D {real_loss.item() + fake_loss.item():.3f} G {g_loss.item():.3f}")
