"""Non-saturating GAN on 2-D toy data (simultaneous updates): one loss function returns both losses
from the same forward pass; both backward passes run before either optimizer steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self, z_dim=4):
        super().__init__()
        self.z_dim = z_dim
        self.net = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, z):
        return self.net(z)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)


def loss_nonsaturating(d, g, x_real, *, device="cpu"):
    z = torch.randn(x_real.shape[0], g.z_dim, device=device)
    gz = g(z)
    dgz = F.sigmoid(d(gz))
    dx = F.sigmoid(d(x_real))
    d_loss = -torch.log(dx + 1e-8).mean() - torch.log(1 - dgz + 1e-8).mean()
    g_loss = -torch.log(dgz + 1e-8).mean()
    return d_loss, g_loss


def train(iterations=4):
    g, d = Generator(), Critic()
    g_optimizer = torch.optim.Adam(g.parameters(), lr=1e-3, betas=(0.5, 0.999))
    d_optimizer = torch.optim.Adam(d.parameters(), lr=1e-3, betas=(0.5, 0.999))
    for it in range(iterations):
        x_real = torch.randn(16, 2) * 0.5 + torch.tensor([2.0, -1.0])
        d_loss, g_loss = loss_nonsaturating(d, g, x_real)
        d_optimizer.zero_grad()
        g_optimizer.zero_grad()
        d_loss.backward(retain_graph=True, inputs=list(d.parameters()))
        g_loss.backward(inputs=list(g.parameters()))
        d_optimizer.step()
        g_optimizer.step()
        print(f"it {it} d_loss {d_loss.item():.3f} g_loss {g_loss.item():.3f}")


if __name__ == "__main__":
    train()
