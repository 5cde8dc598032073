import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
LRELU_SLOPE = 0.1


class Generator(nn.Module):
    """mel -> waveform, also returning the intermediate (lower-rate) waveforms for the CoMBD."""

    def __init__(self, n_mels=16, ch=32):
        super().__init__()
        self.conv_pre = nn.Conv1d(n_mels, ch, 7, 1, padding=3)
        self.ups = nn.ModuleList([nn.ConvTranspose1d(ch, ch // 2, 8, 4, padding=2),
                                  nn.ConvTranspose1d(ch // 2, ch // 4, 8, 4, padding=2)])
        self.outs = nn.ModuleList([nn.Conv1d(ch // 2, 1, 7, 1, padding=3), nn.Conv1d(ch // 4, 1, 7, 1, padding=3)])

    def forward(self, x):
        x = self.conv_pre(x)
        outs = []
        for up, out in zip(self.ups, self.outs):
            x = up(F.leaky_relu(x, LRELU_SLOPE))
            outs.append(torch.tanh(out(F.leaky_relu(x))))
        return outs  # [1/4 rate, full rate]


class DiscriminatorBlock(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.convs = nn.ModuleList([nn.Conv1d(1, ch, 15, 1, padding=7), nn.Conv1d(ch, ch, 41, 4, groups=4, padding=20),
                                    nn.Conv1d(ch, ch, 5, 1, padding=2)])
        self.conv_post = nn.Conv1d(ch, 1, 3, 1, padding=1)

    def forward(self, x):
        fmap = []
        for l in self.convs:
            x = F.leaky_relu(l(x), LRELU_SLOPE)
            fmap.append(x)
        x = self.conv_post(x)
        fmap.append(x)
        return torch.flatten(x, 1, -1), fmap


class CoMBD(nn.Module):
    """Collaborative multi-band discriminator: one block per output resolution."""

    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([DiscriminatorBlock(), DiscriminatorBlock()])

    def forward(self, ys, ys_hat):
        y_d_rs, y_d_gs, fmap_rs, fmap_gs = [], [], [], []
        for y, y_hat, d in zip(ys, ys_hat, self.blocks):
            y_d_r, fmap_r = d(y)
            y_d_g, fmap_g = d(y_hat)
            y_d_rs.append(y_d_r)
            fmap_rs.append(fmap_r)
            y_d_gs.append(y_d_g)
            fmap_gs.append(fmap_g)
        return y_d_rs, y_d_gs, fmap_rs, fmap_gs


class SBD(nn.Module):
    """Sub-band discriminator on a fixed filterbank decomposition of the full-rate waveform."""

    def __init__(self, n_bands=4):
        super().__init__()
        self.register_buffer('filters', torch.randn(n_bands, 1, 31) / 31 ** 0.5)
        self.blocks = nn.ModuleList([DiscriminatorBlock() for _ in range(n_bands)])

    def forward(self, y, y_hat):
        yb, ybh = F.conv1d(y, self.filters, padding=15), F.conv1d(y_hat, self.filters, padding=15)
        y_d_rs, y_d_gs, fmap_rs, fmap_gs = [], [], [], []
        for i, d in enumerate(self.blocks):
            y_d_r, fmap_r = d(yb[:, i:i + 1])
            y_d_g, fmap_g = d(ybh[:, i:i + 1])
            y_d_rs.append(y_d_r)
            fmap_rs.append(fmap_r)
            y_d_gs.append(y_d_g)
            fmap_gs.append(fmap_g)
        return y_d_rs, y_d_gs, fmap_rs, fmap_gs


def feature_loss(fmap_r, fmap_g):
    loss = 0
    for dr, dg in zip(fmap_r, fmap_g):
        for rl, gl in zip(dr, dg):
            loss += torch.mean(torch.abs(rl - gl))
    return loss * 2


def discriminator_loss(disc_real_outputs, disc_generated_outputs):
    loss = 0
    for dr, dg in zip(disc_real_outputs, disc_generated_outputs):
        loss += torch.mean((1 - dr) ** 2) + torch.mean(dg ** 2)
    return loss


def generator_loss(disc_outputs):
    return sum(torch.mean((1 - dg) ** 2) for dg in disc_outputs)


def mel_spectrogram(y, n_fft=64, hop=16, n_mels=16):
    spec = torch.stft(y.squeeze(1), n_fft, hop_length=hop, window=torch.hann_window(n_fft), return_complex=True).abs()
    fb = torch.linspace(0, 1, spec.size(1))[None, :].repeat(n_mels, 1)
    fb = torch.exp(-((fb - torch.linspace(0, 1, n_mels)[:, None]) ** 2) / 0.01)
    return torch.log(torch.clamp(fb @ spec, min=1e-5))


def audio_batches(n, batch_size=4, seg=1024):
    for _ in range(n):
        t = torch.arange(seg) / 8000.0
        f0 = 100 + 300 * torch.rand(batch_size, 1)
        y = 0.5 * torch.sin(2 * torch.pi * f0 * t) + 0.05 * torch.randn(batch_size, seg)
        y = y.unsqueeze(1)
        x = mel_spectrogram(y)[:, :, :seg // 16]
        yield x, y


def train(epochs=2):
    generator = Generator()
    discriminators = nn.ModuleDict({'combd': CoMBD(), 'sbd': SBD()})
    optim_g = torch.optim.AdamW(generator.parameters(), 2e-4, betas=(0.8, 0.99))
    optim_d = torch.optim.AdamW(itertools.chain(discriminators['combd'].parameters(),
                                                discriminators['sbd'].parameters()), 2e-4, betas=(0.8, 0.99))
    scheduler_g = torch.optim.lr_scheduler.ExponentialLR(optim_g, gamma=0.999)
    scheduler_d = torch.optim.lr_scheduler.ExponentialLR(optim_d, gamma=0.999)

    for epoch in range(epochs):
        generator.train()
        discriminators.train()
        for i, (x, y) in enumerate(audio_batches(4)):
            ys = [F.avg_pool1d(y, 4), y]
            y_g_hats = generator(x)
            y_g_hat = y_g_hats[-1]
            y_g_hat_mel = mel_spectrogram(y_g_hat)

            optim_d.zero_grad()
            # CoMBD
            y_du_hat_r, y_du_hat_g, _, _ = discriminators['combd'](ys, [y_hat.detach() for y_hat in y_g_hats])
            loss_disc_u = discriminator_loss(y_du_hat_r, y_du_hat_g)
            # SBD
            y_dp_hat_r, y_dp_hat_g, _, _ = discriminators['sbd'](y, y_g_hat.detach())
            loss_disc_p = discriminator_loss(y_dp_hat_r, y_dp_hat_g)
            loss_disc_all = loss_disc_u + loss_disc_p
            loss_disc_all.backward()
            optim_d.step()

            # Generator
            optim_g.zero_grad()
            loss_mel = F.l1_loss(mel_spectrogram(y), y_g_hat_mel) * 45
            y_du_hat_r, y_du_hat_g, fmap_u_r, fmap_u_g = discriminators['combd'](ys, y_g_hats)
            y_dp_hat_r, y_dp_hat_g, fmap_p_r, fmap_p_g = discriminators['sbd'](y, y_g_hat)
            loss_fm_u = feature_loss(fmap_u_r, fmap_u_g)
            loss_fm_p = feature_loss(fmap_p_r, fmap_p_g)
            loss_gen_u = generator_loss(y_du_hat_g)
            loss_gen_p = generator_loss(y_dp_hat_g)
            loss_gen_all = loss_gen_p + loss_gen_u + loss_fm_u + loss_fm_p + loss_mel
            loss_gen_all.backward()
            optim_g.step()

            print('Epoch {} Step {} Gen Loss Total {:4.3f} Mel-Spec. Error {:4.3f} Disc {:4.3f}'.format(
                epoch, i, loss_gen_all.item(), loss_mel.item() / 45, loss_disc_all.item()))
        scheduler_g.step()
        scheduler_d.step()


if __name__ == '__main__':
    train()
