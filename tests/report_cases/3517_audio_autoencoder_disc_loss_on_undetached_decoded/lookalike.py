"""Adversarial audio autoencoder (1-D conv encoder/decoder on short waveforms)
with an EnCodec-style discriminator: reconstruction (L1 + multi-resolution
magnitude) and adversarial/feature-matching losses for the autoencoder, hinge
loss for the discriminator."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
LEN = 512


class AudioAE(nn.Module):
    def __init__(self, ch=16, latent=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(1, ch, 8, 4, 2), nn.ELU(), nn.Conv1d(ch, latent, 8, 4, 2))
        self.decoder = nn.Sequential(nn.ConvTranspose1d(latent, ch, 8, 4, 2), nn.ELU(),
                                     nn.ConvTranspose1d(ch, 1, 8, 4, 2), nn.Tanh())

    def forward(self, x):
        return self.decoder(self.encoder(x))


class WaveDiscriminator(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.layers = nn.ModuleList([nn.Conv1d(1, ch, 15, 4, 7), nn.Conv1d(ch, ch, 15, 4, 7), nn.Conv1d(ch, 1, 3, 1, 1)])

    def forward(self, x):
        feats = []
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = F.leaky_relu(x, 0.2)
            feats.append(x)
        return x, feats

    def loss(self, reals, fakes):
        logits_real, feats_real = self(reals)
        logits_fake, feats_fake = self(fakes)
        dis_loss = F.relu(1 - logits_real).mean() + F.relu(1 + logits_fake).mean()
        adv_loss = -logits_fake.mean()
        fm_loss = sum(F.l1_loss(ff, fr.detach()) for ff, fr in zip(feats_fake, feats_real))
        return dis_loss, adv_loss, fm_loss


def stft_loss(x, y):
    loss = 0.0
    for n_fft in (64, 128):
        win = torch.hann_window(n_fft)
        X = torch.stft(x.squeeze(1), n_fft, n_fft // 4, window=win, return_complex=True).abs()
        Y = torch.stft(y.squeeze(1), n_fft, n_fft // 4, window=win, return_complex=True).abs()
        loss = loss + F.l1_loss(X, Y)
    return loss


class Trainer:
    def __init__(self):
        self.ae, self.disc = AudioAE(), WaveDiscriminator()
        self.opt_gen = torch.optim.Adam(self.ae.parameters(), lr=3e-4, betas=(0.8, 0.99))
        self.opt_disc = torch.optim.Adam(self.disc.parameters(), lr=3e-4, betas=(0.8, 0.99))

    def training_step(self, reals, step):
        decoded = self.ae(reals)
        if step % 2 == 0:                       # discriminator step on its own forward pass
            dis_loss, _, _ = self.disc.loss(reals, decoded)
            self.opt_disc.zero_grad()
            dis_loss.backward()                 # also reaches the AE, whose grads are reset before its step
            self.opt_disc.step()
            return "disc", dis_loss.item()
        _, adv_loss, fm_loss = self.disc.loss(reals, decoded)
        gen_loss = F.l1_loss(decoded, reals) + stft_loss(decoded, reals) + 0.1 * adv_loss + fm_loss
        self.opt_gen.zero_grad()
        gen_loss.backward()
        self.opt_gen.step()
        return "gen", gen_loss.item()


def batch(n=8):
    t = torch.linspace(0, 1, LEN)
    freqs = 20 + 80 * torch.rand(n, 1)
    return (0.5 * torch.sin(2 * torch.pi * freqs * t) + 0.05 * torch.randn(n, LEN)).unsqueeze(1)


if __name__ == "__main__":
    trainer = Trainer()
    for step in range(4):
        which, value = trainer.training_step(batch(), step)
        print(f"step {step} {which} loss {value:.3f}")
