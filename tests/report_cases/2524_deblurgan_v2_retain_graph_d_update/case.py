import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FPNLite(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(inplace=True),
                                 nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(inplace=True))
        self.out = nn.Conv2d(16, 3, 3, padding=1)

    def forward(self, x):
        return torch.clamp(x + self.out(self.enc(x)), min=-1, max=1)


class PatchD(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 4, 2, 1), nn.LeakyReLU(0.2, True), nn.Conv2d(16, 1, 4, 1, 1))

    def forward(self, x):
        return self.net(x)


class DiscLossWGANGP:
    def __init__(self, lambda_gp=10.0):
        self.LAMBDA = lambda_gp

    def calc_gradient_penalty(self, netD, real_data, fake_data):
        alpha = torch.rand(real_data.size(0), 1, 1, 1).expand_as(real_data)
        interpolates = (alpha * real_data + (1 - alpha) * fake_data).requires_grad_(True)
        disc_interpolates = netD(interpolates)
        gradients = torch.autograd.grad(outputs=disc_interpolates, inputs=interpolates,
                                        grad_outputs=torch.ones_like(disc_interpolates),
                                        create_graph=True, retain_graph=True, only_inputs=True)[0]
        return ((gradients.view(gradients.size(0), -1).norm(2, dim=1) - 1) ** 2).mean() * self.LAMBDA

    def get_g_loss(self, net, fakeB, realB):
        return -net(fakeB).mean()

    def get_loss(self, net, fakeB, realB):
        D_fake = net(fakeB.detach()).mean()
        D_real = net(realB).mean()
        return D_fake - D_real + self.calc_gradient_penalty(net, realB.data, fakeB.data)


class Trainer:
    def __init__(self):
        self.netG, self.netD = FPNLite(), PatchD()
        self.adv = DiscLossWGANGP()
        self.adv_lambda = 0.001
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=1e-4)
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=1e-4)

    def _update_d(self, outputs, targets):
        self.optimizer_D.zero_grad()
        loss_D = self.adv_lambda * self.adv.get_loss(self.netD, outputs, targets)
        loss_D.backward(retain_graph=True)
        self.optimizer_D.step()
        return loss_D.item()

    def _run_epoch(self, n_batches=4):
        for i in range(n_batches):
            inputs = torch.rand(2, 3, 16, 16) * 2 - 1
            targets = torch.clamp(inputs + 0.1 * torch.randn_like(inputs), -1, 1)
            outputs = self.netG(inputs)
            loss_D = self._update_d(outputs, targets)
            self.optimizer_G.zero_grad()
            loss_content = F.mse_loss(outputs, targets)
            loss_adv = self.adv.get_g_loss(self.netD, outputs, targets)
            loss_G = loss_content + self.adv_lambda * loss_adv
            loss_G.backward()
            self.optimizer_G.step()
        return loss_G.item(), loss_D


trainer = Trainer()
for epoch in range(2):
    print('epoch %d  G %.4f  D %.5f' % ((epoch,) + trainer._run_epoch()))
