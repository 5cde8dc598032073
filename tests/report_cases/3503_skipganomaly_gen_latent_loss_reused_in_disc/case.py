"""Skip-GANomaly style anomaly detector on 16x16 grey patches: an encoder-decoder
generator reconstructs the input, a discriminator scores real/fake and exposes
its penultimate features for the adversarial (feature matching) loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(1, 8, 4, 2, 1), nn.LeakyReLU(0.2))
        self.enc2 = nn.Sequential(nn.Conv2d(8, 16, 4, 2, 1), nn.LeakyReLU(0.2))
        self.dec2 = nn.Sequential(nn.ConvTranspose2d(16, 8, 4, 2, 1), nn.ReLU())
        self.dec1 = nn.ConvTranspose2d(16, 1, 4, 2, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        d2 = self.dec2(self.enc2(e1))
        return torch.tanh(self.dec1(torch.cat([d2, e1], 1)))  # skip connection


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 4, 2, 1), nn.LeakyReLU(0.2),
                                      nn.Conv2d(8, 16, 4, 2, 1), nn.LeakyReLU(0.2))
        self.classifier = nn.Conv2d(16, 1, 4, 1, 0)

    def forward(self, x):
        f = self.features(x)
        return self.classifier(f).flatten(), f


class SkipGanomaly:
    def __init__(self, w_adv=1.0, w_con=50.0, w_lat=1.0):
        self.netg, self.netd = Generator(), Discriminator()
        self.optimizer_g = torch.optim.Adam(self.netg.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.optimizer_d = torch.optim.Adam(self.netd.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.w_adv, self.w_con, self.w_lat = w_adv, w_con, w_lat

    def forward(self, x):
        self.input = x
        self.fake = self.netg(x)

    def update_netg(self):
        self.optimizer_g.zero_grad()
        pred_fake, feat_fake = self.netd(self.fake)
        _, feat_real = self.netd(self.input)
        self.err_g_adv = F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake))
        self.err_g_con = F.l1_loss(self.fake, self.input)
        self.err_g_lat = F.mse_loss(feat_fake, feat_real)
        self.err_g = self.w_adv * self.err_g_adv + self.w_con * self.err_g_con + self.w_lat * self.err_g_lat
        self.err_g.backward(retain_graph=True)
        self.optimizer_g.step()

    def update_netd(self):
        self.optimizer_d.zero_grad()
        pred_real, _ = self.netd(self.input)
        pred_fake, _ = self.netd(self.fake.detach())
        self.err_d_real = F.binary_cross_entropy_with_logits(pred_real, torch.ones_like(pred_real))
        self.err_d_fake = F.binary_cross_entropy_with_logits(pred_fake, torch.zeros_like(pred_fake))
        # the latent term pushes D to separate real/fake features too
        self.err_d = self.err_d_real + self.err_d_fake + self.err_g_lat
        self.err_d.backward()
        self.optimizer_d.step()

    def optimize_params(self, x):
        self.forward(x)
        self.update_netg()
        self.update_netd()
        return self.err_g.item(), self.err_d.item()


def main():
    normal_data = torch.tanh(torch.randn(64, 1, 16, 16) * 0.5)
    model = SkipGanomaly()
    for epoch in range(2):
        for i in range(0, 64, 16):
            err_g, err_d = model.optimize_params(normal_data[i:i + 16])
        print(f"epoch {epoch}: err_g {err_g:.3f} err_d {err_d:.3f}")


if __name__ == "__main__":
    main()
