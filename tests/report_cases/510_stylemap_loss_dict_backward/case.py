import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
LAMBDA = {"adv": 1.0, "w_rec": 1.0}


class StyleMapModel(nn.Module):
    def __init__(self, img_dim=48, code_dim=12):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(img_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, code_dim))
        self.mapping = nn.Sequential(nn.Linear(code_dim, code_dim), nn.LeakyReLU(0.2))
        self.generator = nn.Sequential(nn.Linear(code_dim, 32), nn.ReLU(), nn.Linear(32, img_dim))
        self.discriminator = nn.Sequential(nn.Linear(img_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, real_img, mode):
        z = torch.randn(real_img.size(0), self.mapping[0].in_features)
        stylecode = self.mapping(z)
        fake_img = self.generator(stylecode)
        if mode == "D":
            return (F.softplus(self.discriminator(fake_img.detach())).mean()
                    + F.softplus(-self.discriminator(real_img)).mean())
        adv_loss = F.softplus(-self.discriminator(fake_img)).mean()
        w_rec_loss = F.mse_loss(self.encoder(fake_img), stylecode)
        return {"adv": adv_loss, "w_rec": w_rec_loss}, stylecode


def train(steps=3):
    model = StyleMapModel()
    g_params = [p for n, p in model.named_parameters() if not n.startswith("discriminator")]
    g_optim = torch.optim.Adam(g_params, lr=2e-3, betas=(0.0, 0.99))
    d_optim = torch.optim.Adam(model.discriminator.parameters(), lr=2e-3, betas=(0.0, 0.99))
    for step in range(steps):
        real = torch.randn(8, 48)
        d_loss = model(real, "D")
        d_optim.zero_grad()
        d_loss.backward()
        d_optim.step()

        losses, _ = model(real, "G")
        g_optim.zero_grad()
        for name, value in losses.items():
            (value * LAMBDA[name]).backward()
        g_optim.step()
        print(step, {k: round(v.item(), 4) for k, v in losses.items()})


if __name__ == "__main__":
    train()
