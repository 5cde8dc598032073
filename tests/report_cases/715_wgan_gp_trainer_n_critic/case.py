"""WGAN-GP trainer class with several critic iterations per generator step."""
import torch
import torch.nn as nn


class WGAN_GP:
    def __init__(self, z_dim=4, x_dim=2, critic_iter=3, lambda_term=10.0, lr=1e-4):
        self.G = nn.Sequential(nn.Linear(z_dim, 16), nn.ReLU(), nn.Linear(16, x_dim))
        self.D = nn.Sequential(nn.Linear(x_dim, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
        self.d_optimizer = torch.optim.Adam(self.D.parameters(), lr=lr, betas=(0.5, 0.999))
        self.g_optimizer = torch.optim.Adam(self.G.parameters(), lr=lr, betas=(0.5, 0.999))
        self.z_dim, self.critic_iter, self.lambda_term = z_dim, critic_iter, lambda_term

    def calculate_gradient_penalty(self, real, fake):
        eta = torch.rand(real.size(0), 1).expand_as(real)
        interpolated = (eta * real + (1 - eta) * fake).requires_grad_(True)
        prob_interpolated = self.D(interpolated)
        gradients = torch.autograd.grad(outputs=prob_interpolated, inputs=interpolated,
                                        grad_outputs=torch.ones_like(prob_interpolated),
                                        create_graph=True, retain_graph=True)[0]
        return ((gradients.norm(2, dim=1) - 1) ** 2).mean() * self.lambda_term

    def train(self, sample_real, generator_iters=3, batch=8):
        for g_iter in range(generator_iters):
            for p in self.D.parameters():
                p.requires_grad = True
            z = torch.randn(batch, self.z_dim)
            fake_images = self.G(z).detach()          # one fake batch reused by all critic iterations
            for d_iter in range(self.critic_iter):
                self.D.zero_grad()
                images = sample_real(batch)
                d_loss_real = self.D(images).mean()
                d_loss_fake = self.D(fake_images).mean()
                gradient_penalty = self.calculate_gradient_penalty(images, fake_images)
                d_loss = d_loss_fake - d_loss_real + gradient_penalty
                d_loss.backward()
                self.d_optimizer.step()

            for p in self.D.parameters():
                p.requires_grad = False             # critic frozen during the generator update
            self.G.zero_grad()
            fake_images = self.G(torch.randn(batch, self.z_dim))
            g_loss = -self.D(fake_images).mean()
            g_loss.backward()
            self.g_optimizer.step()
            print(g_iter, round(d_loss.item(), 4), round(g_loss.item(), 4))


def sample_real(batch):
    return torch.randn(batch, 2) * 0.1 + torch.tensor([1.0, -1.0])


if __name__ == "__main__":
    torch.manual_seed(0)
    WGAN_GP().train(sample_real)
