import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Generator(nn.Module):
    """DSGAN-style down-sampler: produces LR images with realistic noise."""
    def __init__(self, n_res=2, ch=16):
        super().__init__()
        self.head = nn.Conv2d(3, ch, 3, padding=1)
        self.body = nn.Sequential(*[nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.PReLU()) for _ in range(n_res)])
        self.tail = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x):
        h = self.head(x)
        return x + self.tail(self.body(h))


class Discriminator(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, ch, 5, padding=2), nn.LeakyReLU(0.2),
                                 nn.Conv2d(ch, 32, 5, padding=2), nn.LeakyReLU(0.2),
                                 nn.AdaptiveAvgPool2d(1), nn.Conv2d(32, 1, 1))

    def forward(self, x):
        return self.net(x)


def high_pass(x):
    return x - F.avg_pool2d(x, 5, stride=1, padding=2)


netG, netD = Generator(), Discriminator()
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
w_col, w_tex = 1.0, 0.005

for iteration in range(3):
    input_img = F.avg_pool2d(torch.rand(2, 3, 32, 32), 2)   # bicubic-ish LR input
    target_img = torch.rand(2, 3, 16, 16)                    # real-world LR sample
    fake_img = netG(input_img)

    # --- discriminator on the high frequencies ---
    optimizerD.zero_grad()
    fake_tex = netD(high_pass(fake_img))
    real_tex = netD(high_pass(target_img))
    d_loss = torch.mean(fake_tex) - torch.mean(real_tex)
    d_loss.backward(retain_graph=True)
    optimizerD.step()

    # --- generator: colour loss + texture (adversarial) loss ---
    optimizerG.zero_grad()
    col_loss = F.l1_loss(F.avg_pool2d(fake_img, 5, 1, 2), F.avg_pool2d(input_img, 5, 1, 2))
    tex_loss = -torch.mean(fake_tex)
    g_loss = w_col * col_loss + w_tex * tex_loss
    g_loss.backward()
    optimizerG.step()
    print(iteration, round(d_loss.item(), 4), round(g_loss.item(), 4))
