"""Conditional GAN wrapper: one generator forward, several critic updates, one G update."""
import torch
from networks import ResnetGenerator, NLayerDiscriminator, frozen_feature_net
from losses import ContentLoss, DiscLossWGANGP


class ConditionalGAN:
    def __init__(self, lr=1e-4, lambda_a=100.0, retain_critic_graph=False):
        self.netG = ResnetGenerator()
        self.netD = NLayerDiscriminator()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=lr, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=lr, betas=(0.5, 0.999))
        self.critic_updates = 5
        self.disc_loss = DiscLossWGANGP()
        self.content_loss = ContentLoss(frozen_feature_net())
        self.lambda_a = lambda_a
        self.retain_critic_graph = retain_critic_graph

    def set_input(self, blurred, sharp):
        self.real_a, self.real_b = blurred, sharp

    def forward(self):
        self.fake_b = self.netG(self.real_a)

    def backward_D(self):
        self.loss_D = self.disc_loss.get_loss(self.netD, self.real_a, self.fake_b, self.real_b)
        self.loss_D.backward(retain_graph=self.retain_critic_graph)

    def backward_G(self):
        self.loss_G_GAN = self.disc_loss.get_g_loss(self.netD, self.real_a, self.fake_b)
        self.loss_G_content = self.content_loss.get_loss(self.fake_b, self.real_b) * self.lambda_a
        self.loss_G = self.loss_G_GAN + self.loss_G_content
        self.loss_G.backward()

    def optimize_parameters(self):
        self.forward()
        for _ in range(self.critic_updates):
            self.optimizer_D.zero_grad()
            self.backward_D()
            self.optimizer_D.step()
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()

    def current_errors(self):
        return {"G": self.loss_G.item(), "D": self.loss_D.item()}
