"""HiFi-GAN style vocoder training on toy audio: the generator is warmed up with the mel-spectrogram
L1 loss alone (target mels computed under no_grad) before the discriminator and adversarial/feature-matching losses are switched on."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from stft_fixed import TacotronSTFT

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self, n_mels=16, ch=32):
        super().__init__()
        self.pre = nn.Conv1d(n_mels, ch, 7, padding=3)
        self.ups = nn.Sequential(nn.LeakyReLU(0.1), nn.ConvTranspose1d(ch, ch // 2, 8, 4, 2),
                                 nn.LeakyReLU(0.1), nn.ConvTranspose1d(ch // 2, ch // 4, 8, 4, 2))
        self.post = nn.Conv1d(ch // 4, 1, 7, padding=3)

    def forward(self, mel):
        return torch.tanh(self.post(self.ups(self.pre(mel))))


class ScaleDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList([nn.Conv1d(1, 8, 15, 1, 7), nn.Conv1d(8, 16, 41, 4, 20), nn.Conv1d(16, 1, 3, 1, 1)])

    def forward(self, x):
        fmap = []
        for conv in self.convs[:-1]:
            x = F.leaky_relu(conv(x), 0.1)
            fmap.append(x)
        return self.convs[-1](x), fmap


def train(steps=4, disc_start_step=2):
    stft = TacotronSTFT()
    generator, discriminator = Generator(), ScaleDiscriminator()
    optim_g = torch.optim.AdamW(generator.parameters(), 2e-4, betas=(0.8, 0.99))
    optim_d = torch.optim.AdamW(discriminator.parameters(), 2e-4, betas=(0.8, 0.99))
    for step in range(steps):
        audio = torch.sin(torch.linspace(0, 60, 256) * (1 + torch.rand(2, 1))).unsqueeze(1)
        with torch.no_grad():
            mel = stft.mel_spectrogram(audio.squeeze(1)).detach()  # input/target, no graph needed
        fake_audio = generator(mel)[..., :256]
        mel_fake = stft.mel_spectrogram(fake_audio.squeeze(1))
        loss_mel = F.l1_loss(mel_fake, mel) * 45
        if step >= disc_start_step:
            optim_d.zero_grad()
            d_real, _ = discriminator(audio)
            d_fake, _ = discriminator(fake_audio.detach())
            loss_d = ((1 - d_real) ** 2).mean() + (d_fake ** 2).mean()
            loss_d.backward()
            optim_d.step()
        optim_g.zero_grad()
        loss_g = loss_mel
        if step >= disc_start_step:
            d_fake, fmap_fake = discriminator(fake_audio)
            _, fmap_real = discriminator(audio)
            loss_fm = sum(F.l1_loss(f, r.detach()) for f, r in zip(fmap_fake, fmap_real))
            loss_g = loss_g + ((1 - d_fake) ** 2).mean() + 2 * loss_fm
        loss_g.backward()
        optim_g.step()
        print(f"step {step} mel {loss_mel.item():.3f} g {loss_g.item():.3f}")


if __name__ == "__main__":
    train()
