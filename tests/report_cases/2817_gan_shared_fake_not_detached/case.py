import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
LATENT = 16


class MSGGenerator(nn.Module):
    """Multi-scale-gradient generator: returns an image at every resolution."""
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(LATENT, 32 * 4 * 4)
        self.up1 = nn.Conv2d(32, 16, 3, padding=1)
        self.up2 = nn.Conv2d(16, 8, 3, padding=1)
        self.rgb = nn.ModuleList([nn.Conv2d(c, 3, 1) for c in (32, 16, 8)])

    def forward(self, z):
        h = F.leaky_relu(self.fc(z).view(-1, 32, 4, 4), 0.2)
        outs = [self.rgb[0](h)]
        h = F.leaky_relu(self.up1(F.interpolate(h, scale_factor=2)), 0.2)
        outs.append(self.rgb[1](h))
        h = F.leaky_relu(self.up2(F.interpolate(h, scale_factor=2)), 0.2)
        outs.append(self.rgb[2](h))
        return outs


class MSGDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.from_rgb = nn.ModuleList([nn.Conv2d(3, c, 1) for c in (8, 16, 32)])
        self.down1 = nn.Conv2d(8, 16, 3, padding=1)
        self.down2 = nn.Conv2d(16 + 16, 32, 3, padding=1)
        self.final = nn.Linear((32 + 32) * 4 * 4, 1)

    def forward(self, imgs):
        x4, x8, x16 = imgs
        h = F.leaky_relu(self.from_rgb[0](x16), 0.2)
        h = F.avg_pool2d(F.leaky_relu(self.down1(h), 0.2), 2)
        h = torch.cat([h, self.from_rgb[1](x8)], 1)
        h = F.avg_pool2d(F.leaky_relu(self.down2(h), 0.2), 2)
        h = torch.cat([h, self.from_rgb[2](x4)], 1)
        return self.final(h.flatten(1))


def real_pyramid(x16):
    return [F.avg_pool2d(x16, 4), F.avg_pool2d(x16, 2), x16]


G, D = MSGGenerator(), MSGDiscriminator()
g_opt = torch.optim.Adam(G.parameters(), lr=3e-4, betas=(0.0, 0.99))
d_opt = torch.optim.Adam(D.parameters(), lr=3e-4, betas=(0.0, 0.99))

for step in range(3):
    real = real_pyramid(torch.rand(8, 3, 16, 16) * 2 - 1)
    z = torch.randn(8, LATENT)
    # one generator pass shared by the D and G updates
    fake = G(z)

    d_loss = F.softplus(D(fake)).mean() + F.softplus(-D(real)).mean()
    d_opt.zero_grad()
    d_loss.backward()
    d_opt.step()

    g_loss = F.softplus(-D(fake)).mean()
    g_opt.zero_grad()
    g_loss.backward()
    g_opt.step()
    print(step, round(d_loss.item(), 4), round(g_loss.item(), 4))
