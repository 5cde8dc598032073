import torch
import torch.nn as nn
import torch.nn.functional as F

IMG = 3 * 8 * 8
STYLE = 32


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(IMG, 64), nn.LeakyReLU(0.2), nn.Linear(64, STYLE))

    def forward(self, img):
        return self.net(img.flatten(1))


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(STYLE, 64), nn.LeakyReLU(0.2), nn.Linear(64, IMG), nn.Tanh())

    def forward(self, stylecode):
        return self.net(stylecode).view(-1, 3, 8, 8)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(IMG, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))

    def forward(self, img):
        return self.net(img.flatten(1))


class StyleMapModel(nn.Module):
    """Wraps the three networks and dispatches on `mode`, like the reference train.py."""

    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.generator = Generator()
        self.discriminator = Discriminator()

    def forward(self, real_img, *args, mode="G", **kwargs):
        if mode == "D":
            with torch.no_grad():
                fake_img = self.generator(self.encoder(real_img))
            real_pred = self.discriminator(real_img)
            fake_pred = self.discriminator(fake_img)
            return {"d_loss": F.softplus(-real_pred).mean() + F.softplus(fake_pred).mean()}
        if mode == "G":
            stylecode = self.encoder(real_img)
            fake_img = self.generator(stylecode)
            fake_pred = self.discriminator(fake_img)
            adv_loss = F.softplus(-fake_pred).mean()
            recon_loss = F.mse_loss(fake_img, real_img)
            w_rec_loss = F.mse_loss(self.encoder(fake_img), stylecode)
            return {"adv": adv_loss, "recon": recon_loss, "w_rec": w_rec_loss}
        raise ValueError(mode)


LOSS_WEIGHTS = {"adv": 1.0, "recon": 1.0, "w_rec": 1.0}


def requires_grad(module, flag):
    for p in module.parameters():
        p.requires_grad = flag


def train(model, batches, iters=6):
    g_optim = torch.optim.Adam(
        list(model.generator.parameters()) + list(model.encoder.parameters()), lr=2e-3, betas=(0.0, 0.99)
    )
    d_optim = torch.optim.Adam(model.discriminator.parameters(), lr=2e-3, betas=(0.0, 0.99))

    for i in range(iters):
        real_img = batches[i % len(batches)]

        requires_grad(model.discriminator, True)
        d_losses = model(real_img, mode="D")
        d_optim.zero_grad()
        d_losses["d_loss"].backward()
        d_optim.step()

        requires_grad(model.discriminator, False)
        g_losses = model(real_img, mode="G")
        g_optim.zero_grad()
        g_loss = sum(g_losses[name] * weight for name, weight in LOSS_WEIGHTS.items())
        g_loss.backward()
        g_optim.step()

        print(i, {k: round(v.item(), 4) for k, v in {**d_losses, **g_losses}.items()})


if __name__ == "__main__":
    torch.manual_seed(0)
    data = [torch.rand(4, 3, 8, 8) * 2 - 1 for _ in range(3)]
    train(StyleMapModel(), data)
