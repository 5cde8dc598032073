import torch
from torch import nn, optim
from torch.nn import functional as F

torch.manual_seed(0)

args = {"batch": 8, "size": 16, "iter": 20, "lr": 2e-3, "r1": 10.0, "d_reg_every": 4}


class Encoder(nn.Module):
    def __init__(self, channel=16, structure_channel=4, texture_dim=32):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, channel, 3, 2, 1), nn.LeakyReLU(0.2),
                                  nn.Conv2d(channel, channel, 3, 2, 1), nn.LeakyReLU(0.2))
        self.structure = nn.Conv2d(channel, structure_channel, 1)
        self.texture = nn.Linear(channel, texture_dim)

    def forward(self, input):
        out = self.stem(input)
        return self.structure(out), self.texture(out.mean(dim=(2, 3)))


class Generator(nn.Module):
    def __init__(self, channel=16, structure_channel=4, texture_dim=32):
        super().__init__()
        self.inp = nn.Conv2d(structure_channel, channel, 3, padding=1)
        self.mod = nn.Linear(texture_dim, channel)
        self.up = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(channel, channel, 3, padding=1),
                                nn.LeakyReLU(0.2), nn.Upsample(scale_factor=2),
                                nn.Conv2d(channel, 3, 3, padding=1))

    def forward(self, structure, texture):
        out = self.inp(structure) * (1 + self.mod(texture)[:, :, None, None])
        return torch.tanh(self.up(F.leaky_relu(out, 0.2)))


class Discriminator(nn.Module):
    def __init__(self, channel=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, channel, 3, 2, 1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(channel, channel, 3, 2, 1), nn.LeakyReLU(0.2),
                                 nn.Flatten(), nn.Linear(channel * 4 * 4, 1))

    def forward(self, input):
        return self.net(input)


def requires_grad(model, flag=True):
    for p in model.parameters():
        p.requires_grad = flag


def d_logistic_loss(real_pred, fake_pred):
    return F.softplus(-real_pred).mean() + F.softplus(fake_pred).mean()


def d_r1_loss(real_pred, real_img):
    grad_real, = torch.autograd.grad(outputs=real_pred.sum(), inputs=real_img, create_graph=True)
    return grad_real.pow(2).reshape(grad_real.shape[0], -1).sum(1).mean()


def g_nonsaturating_loss(fake_pred):
    return F.softplus(-fake_pred).mean()


def sample_data(batch, size):
    xs = torch.linspace(-1, 1, size)
    freq = torch.rand(batch, 1, 1, 1) * 3 + 1
    phase = torch.rand(batch, 3, 1, 1) * 3.14
    return torch.sin(freq * xs.view(1, 1, 1, size) + phase) * torch.cos(freq * xs.view(1, 1, size, 1))


def train(encoder, generator, discriminator, g_optim, d_optim):
    for i in range(args["iter"]):
        real_img = sample_data(args["batch"], args["size"])
        real_img1, real_img2 = real_img.chunk(2, dim=0)

        requires_grad(encoder, False)
        requires_grad(generator, False)
        requires_grad(discriminator, True)

        structure1, texture1 = encoder(real_img1)
        _, texture2 = encoder(real_img2)

        fake_img1 = generator(structure1, texture1)
        fake_img2 = generator(structure1, texture2)

        fake_pred = discriminator(torch.cat((fake_img1, fake_img2), 0))
        real_pred = discriminator(real_img)
        d_loss = d_logistic_loss(real_pred, fake_pred)

        d_optim.zero_grad()
        d_loss.backward()
        d_optim.step()

        if i % args["d_reg_every"] == 0:
            real_img.requires_grad = True
            real_pred = discriminator(real_img)
            r1_loss = d_r1_loss(real_pred, real_img)

            d_optim.zero_grad()
            (args["r1"] / 2 * r1_loss * args["d_reg_every"] + 0 * real_pred[0]).backward()
            d_optim.step()

        requires_grad(encoder, True)
        requires_grad(generator, True)
        requires_grad(discriminator, False)

        real_img = real_img.detach()
        structure1, texture1 = encoder(real_img1)
        _, texture2 = encoder(real_img2)

        fake_img1 = generator(structure1, texture1)
        fake_img2 = generator(structure1, texture2)

        recon_loss = F.l1_loss(fake_img1, real_img1)
        fake_pred = discriminator(torch.cat((fake_img1, fake_img2), 0))
        g_loss = g_nonsaturating_loss(fake_pred)

        g_optim.zero_grad()
        (recon_loss + g_loss).backward()
        g_optim.step()

        if i % 5 == 0:
            print(f"{i}: d {d_loss.item():.3f} g {g_loss.item():.3f} rec {recon_loss.item():.3f}")


if __name__ == "__main__":
    encoder, generator, discriminator = Encoder(), Generator(), Discriminator()
    g_optim = optim.Adam(list(generator.parameters()) + list(encoder.parameters()), lr=args["lr"], betas=(0.0, 0.99))
    d_optim = optim.Adam(discriminator.parameters(), lr=args["lr"], betas=(0.0, 0.99))
    train(encoder, generator, discriminator, g_optim, d_optim)
