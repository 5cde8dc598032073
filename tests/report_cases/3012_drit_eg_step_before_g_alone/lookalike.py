"""DRIT-style disentangled image translation: a content encoder, an attribute encoder and a
generator are updated in update_EG() with the full EG loss, then again with the latent
regression loss on images generated from random attribute codes (backward_G_alone)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
IMG, CONTENT, ATTR = 32, 8, 4


def mlp(i, o):
    return nn.Sequential(nn.Linear(i, 32), nn.LeakyReLU(0.2), nn.Linear(32, o))


class AttrEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = mlp(IMG, 2 * ATTR)

    def forward(self, x):
        mu, logvar = self.body(x).chunk(2, dim=1)
        return mu, logvar


class DRIT(nn.Module):
    def __init__(self, lr=1e-4):
        super().__init__()
        self.enc_c, self.enc_a = mlp(IMG, CONTENT), AttrEncoder()
        self.gen, self.dis = mlp(CONTENT + ATTR, IMG), mlp(IMG, 1)
        self.enc_c_opt = torch.optim.Adam(self.enc_c.parameters(), lr=lr, betas=(0.5, 0.999))
        self.enc_a_opt = torch.optim.Adam(self.enc_a.parameters(), lr=lr, betas=(0.5, 0.999))
        self.gen_opt = torch.optim.Adam(self.gen.parameters(), lr=lr, betas=(0.5, 0.999))
        self.dis_opt = torch.optim.Adam(self.dis.parameters(), lr=lr, betas=(0.5, 0.999))

    def forward(self, real):
        self.real = real
        self.z_content = self.enc_c(real)
        self.mu, self.logvar = self.enc_a(real)
        std = torch.exp(0.5 * self.logvar)
        self.z_attr = self.mu + torch.randn_like(std) * std
        self.z_random = torch.randn(real.size(0), ATTR)
        self.fake_recon = self.gen(torch.cat([self.z_content, self.z_attr], dim=1))
        self.fake_random = self.gen(torch.cat([self.z_content, self.z_random], dim=1))

    def update_D(self):
        self.dis_opt.zero_grad()
        pred_real, pred_fake = self.dis(self.real), self.dis(self.fake_random.detach())
        loss_D = F.binary_cross_entropy_with_logits(pred_real, torch.ones_like(pred_real)) + \
            F.binary_cross_entropy_with_logits(pred_fake, torch.zeros_like(pred_fake))
        loss_D.backward()
        self.dis_opt.step()
        return loss_D.item()

    def backward_EG(self):
        pred_fake = self.dis(self.fake_recon)
        loss_G_GAN = F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake))
        loss_recon = F.l1_loss(self.fake_recon, self.real) * 10
        loss_kl = 0.01 * torch.mean(self.mu.pow(2) + self.logvar.exp() - 1 - self.logvar)
        loss_G = loss_G_GAN + loss_recon + loss_kl
        loss_G.backward(retain_graph=True)
        return loss_G.item()

    def backward_G_alone(self):
        pred_fake = self.dis(self.fake_random)
        loss_G_GAN2 = F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake))
        mu2, _ = self.enc_a(self.fake_random)
        loss_z_L1 = torch.mean(torch.abs(mu2 - self.z_random)) * 10
        loss_z = loss_G_GAN2 + loss_z_L1
        loss_z.backward()
        return loss_z.item()

    def update_EG(self):
        self.enc_c_opt.zero_grad()
        self.enc_a_opt.zero_grad()
        self.gen_opt.zero_grad()
        loss_G = self.backward_EG()
        self.enc_c_opt.step()
        self.enc_a_opt.step()
        self.gen_opt.step()
        self.enc_c_opt.zero_grad()
        self.gen_opt.zero_grad()
        self.forward(self.real)
        loss_z = self.backward_G_alone()
        self.enc_c_opt.step()
        self.gen_opt.step()
        return loss_G, loss_z


if __name__ == "__main__":
    model = DRIT()
    data = torch.rand(16, IMG) * 2 - 1
    for it in range(4):
        model(data[torch.randint(0, 16, (8,))])
        loss_D = model.update_D()
        loss_G, loss_z = model.update_EG()
        print(f"iter {it}: D {loss_D:.3f} G {loss_G:.3f} z {loss_z:.3f}")
