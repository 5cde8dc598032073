import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_DOMAINS, STYLE_DIM, LATENT_DIM = 3, 8, 4


class Munch(dict):
    def __getattr__(self, name):
        return self[name]


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.LeakyReLU(0.2))
        self.affine = nn.Linear(STYLE_DIM, 32)
        self.dec = nn.Conv2d(16, 3, 3, padding=1)

    def forward(self, x, s):
        h = self.enc(x)
        gamma, beta = self.affine(s).chunk(2, dim=1)
        h = F.instance_norm(h) * (1 + gamma[:, :, None, None]) + beta[:, :, None, None]
        return torch.tanh(self.dec(F.leaky_relu(h, 0.2)))


class MappingNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(LATENT_DIM, 32), nn.ReLU())
        self.unshared = nn.ModuleList([nn.Linear(32, STYLE_DIM) for _ in range(NUM_DOMAINS)])

    def forward(self, z, y):
        h = self.shared(z)
        out = torch.stack([layer(h) for layer in self.unshared], dim=1)
        return out[torch.arange(y.size(0)), y]


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Conv2d(3, 16, 4, 2, 1), nn.LeakyReLU(0.2),
                                  nn.Conv2d(16, NUM_DOMAINS, 8))

    def forward(self, x, y):
        out = self.main(x).view(x.size(0), -1)
        return out[torch.arange(y.size(0)), y]


def adv_loss(logits, target):
    targets = torch.full_like(logits, fill_value=target)
    return F.binary_cross_entropy_with_logits(logits, targets)


def r1_reg(d_out, x_in):
    grad_dout = torch.autograd.grad(outputs=d_out.sum(), inputs=x_in,
                                    create_graph=True, retain_graph=True, only_inputs=True)[0]
    return 0.5 * grad_dout.pow(2).view(x_in.size(0), -1).sum(1).mean()


def compute_d_loss(nets, x_real, y_org, y_trg, z_trg, lambda_reg=1.0):
    x_real.requires_grad_()
    out = nets.discriminator(x_real, y_org)
    loss_real = adv_loss(out, 1)
    loss_reg = r1_reg(out, x_real)
    with torch.no_grad():
        s_trg = nets.mapping_network(z_trg, y_trg)
        x_fake = nets.generator(x_real, s_trg)
    out = nets.discriminator(x_fake, y_trg)
    loss_fake = adv_loss(out, 0)
    return loss_real + loss_fake + lambda_reg * loss_reg


def compute_g_loss(nets, x_real, y_org, y_trg, z_trg, z_trg2, lambda_ds=1.0, lambda_cyc=1.0):
    s_trg = nets.mapping_network(z_trg, y_trg)
    x_fake = nets.generator(x_real, s_trg)
    out = nets.discriminator(x_fake, y_trg)
    loss_adv = adv_loss(out, 1)
    s_trg2 = nets.mapping_network(z_trg2, y_trg)
    x_fake2 = nets.generator(x_real, s_trg2).detach()
    loss_ds = torch.mean(torch.abs(x_fake - x_fake2))
    s_org = nets.mapping_network(torch.randn_like(z_trg), y_org)
    x_rec = nets.generator(x_fake, s_org)
    loss_cyc = torch.mean(torch.abs(x_rec - x_real))
    return loss_adv - lambda_ds * loss_ds + lambda_cyc * loss_cyc


nets = Munch(generator=Generator(), mapping_network=MappingNetwork(), discriminator=Discriminator())
optims = Munch({name: torch.optim.Adam(net.parameters(), lr=1e-4, betas=(0.0, 0.99)) for name, net in nets.items()})


def reset_grad():
    for optim in optims.values():
        optim.zero_grad()


for i in range(5):
    x_real = torch.randn(4, 3, 16, 16)
    y_org = torch.randint(0, NUM_DOMAINS, (4,))
    y_trg = torch.randint(0, NUM_DOMAINS, (4,))
    z_trg, z_trg2 = torch.randn(4, LATENT_DIM), torch.randn(4, LATENT_DIM)

    d_loss = compute_d_loss(nets, x_real, y_org, y_trg, z_trg)
    reset_grad()
    d_loss.backward()
    optims.discriminator.step()

    g_loss = compute_g_loss(nets, x_real, y_org, y_trg, z_trg, z_trg2)
    reset_grad()
    g_loss.backward()
    optims.generator.step()
    optims.mapping_network.step()
    print('iter %d  D %.4f  G %.4f' % (i, d_loss.item(), g_loss.item()))
