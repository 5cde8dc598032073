"""VAE-GAN on flattened 8x8 patches: encoder, decoder and discriminator each
get their own optimizer, updated selectively from one shared forward pass."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import RMSprop

torch.manual_seed(0)
Z_DIM, X_DIM, BATCH = 6, 64, 16


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(X_DIM, 48), nn.ReLU(), nn.Linear(48, 32), nn.ReLU())
        self.head = nn.Linear(32, 2 * Z_DIM)

    def forward(self, x):
        mu, logvar = self.head(self.body(x)).chunk(2, dim=1)
        return mu, logvar


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(X_DIM, 32), nn.LeakyReLU(0.2))
        self.cls = nn.Linear(32, 1)

    def forward(self, x):
        f = self.features(x)
        return self.cls(f), f


class VaeGan(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = nn.Sequential(nn.Linear(Z_DIM, 32), nn.ReLU(), nn.Linear(32, X_DIM), nn.Tanh())
        self.discriminator = Discriminator()

    def forward(self, x):
        mu, logvar = self.encoder(x)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        x_tilde = self.decoder(z)
        x_p = self.decoder(torch.randn_like(z))
        logits, feats = self.discriminator(torch.cat([x, x_tilde, x_p], 0))
        return x_tilde, logits, feats, mu, logvar


def vaegan_losses(logits, feats, mu, logvar, lambda_mse):
    b = BATCH
    f_real, f_tilde = feats[:b], feats[b:2 * b]
    kl = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
    mse = F.mse_loss(f_tilde, f_real.detach())
    ones, zeros = torch.ones(b, 1), torch.zeros(b, 1)
    bce_real = F.binary_cross_entropy_with_logits(logits[:b], ones)
    bce_tilde = F.binary_cross_entropy_with_logits(logits[b:2 * b], zeros)
    bce_samp = F.binary_cross_entropy_with_logits(logits[2 * b:], zeros)
    loss_enc = kl + mse
    loss_dis = bce_real + bce_tilde + bce_samp
    loss_dec = lambda_mse * mse - (1.0 - lambda_mse) * loss_dis
    return loss_enc, loss_dec, loss_dis


def main():
    net = VaeGan()
    opt_enc = RMSprop(net.encoder.parameters(), lr=3e-4, alpha=0.9)
    opt_dec = RMSprop(net.decoder.parameters(), lr=3e-4, alpha=0.9)
    opt_dis = RMSprop(net.discriminator.parameters(), lr=3e-4, alpha=0.9)
    data = torch.tanh(torch.randn(128, X_DIM))
    lambda_mse = 0.5

    for epoch in range(2):
        for i in range(0, data.size(0), BATCH):
            x = data[i:i + BATCH]
            x_tilde, logits, feats, mu, logvar = net(x)
            loss_enc, loss_dec, loss_dis = vaegan_losses(logits, feats, mu, logvar, lambda_mse)

            # each network gets the gradient of its own loss; all gradients are
            # taken from the same graph *before* any parameter is changed
            groups = [(net.encoder, loss_enc), (net.decoder, loss_dec), (net.discriminator, loss_dis)]
            grads = [torch.autograd.grad(loss, list(m.parameters()), retain_graph=True)
                     for m, loss in groups]
            for (m, _), gs in zip(groups, grads):
                for p, g in zip(m.parameters(), gs):
                    p.grad = g
            opt_enc.step()
            opt_dec.step()
            opt_dis.step()
        print(f"epoch {epoch}: enc {loss_enc.item():.3f} dec {loss_dec.item():.3f} dis {loss_dis.item():.3f}")


if __name__ == "__main__":
    main()
