"""CVAE-GAN training step with four modules (E, G, D, C), each with its own optimizer.

All losses are computed first; all backward passes run, then all optimizers step.
"""
import torch
import torch.nn.functional as F

from networks import Encoder, Generator, FeatureNet

torch.manual_seed(0)
N_CLS = 4
E, G = Encoder(n_cls=N_CLS), Generator(n_cls=N_CLS)
D, C = FeatureNet(out_dim=1), FeatureNet(out_dim=N_CLS)
opt = {
    "C": torch.optim.Adam(C.parameters(), lr=2e-4),
    "D": torch.optim.Adam(D.parameters(), lr=2e-4),
    "EG": torch.optim.Adam(list(E.parameters()) + list(G.parameters()), lr=2e-4),
}


def compute_losses(x, y):
    c = F.one_hot(y, N_CLS).float()
    mu, logvar = E(x, c)
    z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
    x_rec = G(z, c)

    logits_c_real, f_c_real = C(x)
    d_real, f_d_real = D(x)
    d_fake, f_d_fake = D(x_rec.detach())
    loss_C = F.cross_entropy(logits_c_real, y)
    loss_D = (F.binary_cross_entropy_with_logits(d_real, torch.ones_like(d_real))
              + F.binary_cross_entropy_with_logits(d_fake, torch.zeros_like(d_fake)))

    kl = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
    _, f_d_rec = D(x_rec)
    _, f_c_rec = C(x_rec)
    loss_G = (F.mse_loss(x_rec, x) + kl
              + F.mse_loss(f_d_rec.mean(0), f_d_real.detach().mean(0))
              + F.mse_loss(f_c_rec.mean(0), f_c_real.detach().mean(0)))
    return loss_C, loss_D, loss_G


data, labels = torch.rand(40, 32) * 2 - 1, torch.randint(0, N_CLS, (40,))
for it in range(3):
    idx = torch.randint(0, 40, (10,))
    loss_C, loss_D, loss_G = compute_losses(data[idx], labels[idx])

    # every backward runs before any parameter is changed in place by a step
    for o in opt.values():
        o.zero_grad()
    loss_G.backward()
    opt["C"].zero_grad()  # drop the feature-matching gradients loss_G left in C and D
    opt["D"].zero_grad()
    loss_C.backward()
    loss_D.backward()
    for o in opt.values():
        o.step()
    print(it, loss_C.item(), loss_D.item(), loss_G.item())
