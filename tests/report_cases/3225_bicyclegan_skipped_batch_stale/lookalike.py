"""Train the BicycleGAN model; the loader drops the incomplete last batch, so forward never skips."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, ch=3, nz=4):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(ch, 16, 4, 2, 1), nn.LeakyReLU(0.2),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc_mu = nn.Linear(16, nz)
        self.fc_logvar = nn.Linear(16, nz)

    def forward(self, x):
        h = self.body(x)
        return self.fc_mu(h), self.fc_logvar(h)


class Generator(nn.Module):
    def __init__(self, ch=3, nz=4):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(ch + nz, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, ch, 3, padding=1), nn.Tanh())

    def forward(self, a, z):
        z_img = z[:, :, None, None].expand(-1, -1, a.size(2), a.size(3))
        return self.net(torch.cat([a, z_img], 1))


class Discriminator(nn.Module):
    def __init__(self, ch=3):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(ch, 16, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(16, 1, 3, padding=1))

    def forward(self, x):
        return self.net(x)


class BiCycleGANModel:
    def __init__(self, batch_size=4, nz=4, lr=2e-4, guard_skipped_batches=False):
        assert batch_size % 2 == 0  # load two images at one time
        self.batch_size, self.nz = batch_size, nz
        self.netE, self.netG, self.netD = Encoder(nz=nz), Generator(nz=nz), Discriminator()
        self.optimizer_E = torch.optim.Adam(self.netE.parameters(), lr=lr, betas=(0.5, 0.999))
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=lr, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=lr, betas=(0.5, 0.999))
        self.guard_skipped_batches = guard_skipped_batches
        self.skip = False

    def set_input(self, data):
        self.input_A, self.input_B = data

    def is_skip(self):
        return self.skip

    def forward(self):
        self.skip = self.input_A.size(0) < self.batch_size
        if self.skip:
            print("skip this point data_size = %d" % self.input_A.size(0))
            return
        half = self.batch_size // 2
        self.real_A_encoded, self.real_A_random = self.input_A[:half], self.input_A[half:]
        self.real_B_encoded = self.input_B[:half]
        self.mu, self.logvar = self.netE(self.real_B_encoded)
        std = self.logvar.mul(0.5).exp()
        self.z_encoded = torch.randn_like(std) * std + self.mu
        self.z_random = torch.randn(self.real_A_random.size(0), self.nz)
        self.fake_B_encoded = self.netG(self.real_A_encoded, self.z_encoded)
        self.fake_B_random = self.netG(self.real_A_random, self.z_random)
        self.mu2, _ = self.netE(self.fake_B_random)

    @staticmethod
    def gan_loss(pred, target_is_real):
        target = torch.ones_like(pred) if target_is_real else torch.zeros_like(pred)
        return F.mse_loss(pred, target)

    def update_D(self, data):
        self.set_input(data)
        self.forward()
        if self.is_skip():
            return
        self.optimizer_D.zero_grad()
        loss_D = (self.gan_loss(self.netD(self.fake_B_encoded.detach()), False)
                  + self.gan_loss(self.netD(self.fake_B_random.detach()), False)
                  + 2 * self.gan_loss(self.netD(self.real_B_encoded), True))
        loss_D.backward()
        self.optimizer_D.step()
        self.loss_D = loss_D.item()

    def backward_EG(self):
        loss_gan = self.gan_loss(self.netD(self.fake_B_encoded), True) + \
            self.gan_loss(self.netD(self.fake_B_random), True)
        loss_l1 = F.l1_loss(self.fake_B_encoded, self.real_B_encoded) * 10.0
        loss_kl = -0.5 * torch.mean(1 + self.logvar - self.mu.pow(2) - self.logvar.exp()) * 0.01
        self.loss_G = loss_gan + loss_l1 + loss_kl
        self.loss_G.backward(retain_graph=True)

    def backward_G_alone(self):
        # latent regression: the generated image must let E recover the random z
        self.loss_z_L1 = F.l1_loss(self.mu2, self.z_random) * 0.5
        self.loss_z_L1.backward()

    def update_G(self):
        if self.guard_skipped_batches and self.is_skip():
            return
        self.optimizer_E.zero_grad()
        self.optimizer_G.zero_grad()
        self.backward_EG()
        self.backward_G_alone()
        self.optimizer_G.step()
        self.optimizer_E.step()


torch.manual_seed(0)


def paired_loader(n_images=10, batch_size=4, size=16, drop_last=False):
    images_a = torch.rand(n_images, 3, size, size) * 2 - 1
    images_b = torch.rand(n_images, 3, size, size) * 2 - 1
    for start in range(0, n_images, batch_size):
        end = start + batch_size
        if end > n_images and drop_last:
            break
        yield images_a[start:end], images_b[start:end]


def main(epochs=2):
    model = BiCycleGANModel(batch_size=4)
    for epoch in range(epochs):
        for i, data in enumerate(paired_loader(drop_last=True)):
            model.update_D(data)
            model.update_G()
            print(epoch, i, round(model.loss_G.item(), 4))


if __name__ == "__main__":
    main()
