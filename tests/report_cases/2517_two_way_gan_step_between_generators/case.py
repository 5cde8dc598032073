import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

LAMBDA_CYC = 10.0


class Generator(nn.Module):
    """Small enhancer: residual colour/tone correction of the input photo."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 5, padding=2)
        self.conv2 = nn.Conv2d(16, 16, 5, padding=2)
        self.conv3 = nn.Conv2d(16, 3, 5, padding=2)

    def forward(self, x):
        h = F.selu(self.conv1(x))
        h = F.selu(self.conv2(h))
        return x + self.conv3(h)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 5, stride=2, padding=2), nn.LeakyReLU(0.2),
                                 nn.Conv2d(16, 1, 5, stride=2, padding=2))

    def forward(self, x):
        return self.net(x).mean(dim=(1, 2, 3))


G_xy, G_yx = Generator(), Generator()      # X: source photos, Y: retouched photos
D_x, D_y = Discriminator(), Discriminator()
optimizer_G1 = torch.optim.Adam(G_xy.parameters(), lr=1e-4, betas=(0.5, 0.999))
optimizer_G2 = torch.optim.Adam(G_yx.parameters(), lr=1e-4, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(list(D_x.parameters()) + list(D_y.parameters()), lr=1e-4, betas=(0.5, 0.999))


def wgan_g(d_fake):
    return -d_fake.mean()


for epoch in range(2):
    for i in range(3):
        x = torch.rand(2, 3, 20, 20)
        y = torch.rand(2, 3, 20, 20)

        y_fake = G_xy(x)
        x_rec = G_yx(y_fake)
        x_fake = G_yx(y)
        y_rec = G_xy(x_fake)

        # generator X -> Y
        loss_G1 = wgan_g(D_y(y_fake)) + LAMBDA_CYC * F.mse_loss(y_rec, y)
        optimizer_G1.zero_grad()
        loss_G1.backward(retain_graph=True)
        optimizer_G1.step()

        # generator Y -> X
        loss_G2 = wgan_g(D_x(x_fake)) + LAMBDA_CYC * F.mse_loss(x_rec, x)
        optimizer_G2.zero_grad()
        loss_G2.backward()
        optimizer_G2.step()

        # discriminators
        loss_D = (D_y(y_fake.detach()) - D_y(y)).mean() + (D_x(x_fake.detach()) - D_x(x)).mean()
        optimizer_D.zero_grad()
        loss_D.backward()
        optimizer_D.step()
    print('epoch %d  G1 %.4f  G2 %.4f  D %.4f' % (epoch, loss_G1.item(), loss_G2.item(), loss_D.item()))
