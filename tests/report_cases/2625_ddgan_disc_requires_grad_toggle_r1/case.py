import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

args = {"nz": 8, "dim": 16, "lr_d": 1e-4, "lr_g": 2e-4, "r1_gamma": 0.05, "lazy_reg": 2, "iters": 6}


class NCSNppLite(nn.Module):
    """Generator: denoises x_tp1 at time t given a latent z."""

    def __init__(self, dim, nz):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + nz + 1, 32), nn.SiLU(), nn.Linear(32, dim))

    def forward(self, x, t, z):
        return self.net(torch.cat([x, z, t[:, None].float()], dim=1))


class Discriminator(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * dim + 1, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x_t, t, x_tp1):
        return self.net(torch.cat([x_t, x_tp1, t[:, None].float()], dim=1))


def q_sample_pairs(x0, t):
    x_t = x0 + 0.1 * t[:, None] * torch.randn_like(x0)
    return x_t, x_t + 0.1 * torch.randn_like(x_t)


netG, netD = NCSNppLite(args["dim"], args["nz"]), Discriminator(args["dim"])
optimizerD = torch.optim.Adam(netD.parameters(), lr=args["lr_d"], betas=(0.5, 0.9))
optimizerG = torch.optim.Adam(netG.parameters(), lr=args["lr_g"], betas=(0.5, 0.9))

for global_step in range(args["iters"]):
    x0 = torch.randn(8, args["dim"])
    # ---- D step ----
    for p in netD.parameters():
        p.requires_grad = True
    netD.zero_grad()
    t = torch.randint(0, 4, (x0.size(0),))
    x_t, x_tp1 = q_sample_pairs(x0, t)
    x_t.requires_grad = True
    D_real = netD(x_t, t, x_tp1.detach()).view(-1)
    errD_real = F.softplus(-D_real).mean()
    errD_real.backward(retain_graph=True)
    if global_step % args["lazy_reg"] == 0:
        grad_real = torch.autograd.grad(outputs=D_real.sum(), inputs=x_t, create_graph=True)[0]
        grad_penalty = (grad_real.view(grad_real.size(0), -1).norm(2, dim=1) ** 2).mean()
        (args["r1_gamma"] / 2 * grad_penalty).backward()
    latent_z = torch.randn(x0.size(0), args["nz"])
    x_0_predict = netG(x_tp1.detach(), t, latent_z)
    x_pos_sample, _ = q_sample_pairs(x_0_predict, t)
    output = netD(x_pos_sample, t, x_tp1.detach()).view(-1)
    errD_fake = F.softplus(output).mean()
    errD_fake.backward()
    optimizerD.step()

    # ---- G step: D frozen through requires_grad = False ----
    for p in netD.parameters():
        p.requires_grad = False
    netG.zero_grad()
    t = torch.randint(0, 4, (x0.size(0),))
    x_t, x_tp1 = q_sample_pairs(x0, t)
    latent_z = torch.randn(x0.size(0), args["nz"])
    x_0_predict = netG(x_tp1.detach(), t, latent_z)
    x_pos_sample, _ = q_sample_pairs(x_0_predict, t)
    output = netD(x_pos_sample, t, x_tp1.detach()).view(-1)
    errG = F.softplus(-output).mean()
    errG.backward()
    optimizerG.step()
    print(global_step, round((errD_real + errD_fake).item(), 4), round(errG.item(), 4))
