"""Mel-spectrogram denoiser.  Validation converts predicted mels back to linear
spectrograms with an SGD-based InverseMelScale (torchaudio-0.10 style) to
report a linear-magnitude error."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def melscale_fbanks(n_freqs, f_min, f_max, n_mels, sample_rate):
    all_freqs = torch.linspace(0, sample_rate // 2, n_freqs)
    m_min, m_max = 2595.0 * math.log10(1.0 + f_min / 700.0), 2595.0 * math.log10(1.0 + f_max / 700.0)
    m_pts = torch.linspace(m_min, m_max, n_mels + 2)
    f_pts = 700.0 * (10 ** (m_pts / 2595.0) - 1.0)
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts.unsqueeze(0) - all_freqs.unsqueeze(1)
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    return torch.clamp(torch.min(down, up), min=0.0)          # (n_freqs, n_mels)


class InverseMelScale(nn.Module):
    """Solve for a non-negative linear spectrogram S with S @ fb ~= melspec by SGD."""

    def __init__(self, n_stft, n_mels=32, sample_rate=16000, max_iter=200,
                 tolerance_loss=1e-5, tolerance_change=1e-8, sgdargs=None):
        super().__init__()
        self.max_iter, self.tolerance_loss, self.tolerance_change = max_iter, tolerance_loss, tolerance_change
        self.sgdargs = sgdargs or {"lr": 0.1, "momentum": 0.9}
        self.register_buffer("fb", melscale_fbanks(n_stft, 0.0, sample_rate / 2, n_mels, sample_rate))

    def forward(self, melspec):
        shape = melspec.size()
        melspec = melspec.view(-1, shape[-2], shape[-1]).transpose(-1, -2)      # (B, time, n_mels)
        freq, _ = self.fb.size()
        melspec = melspec.detach()
        specgram = torch.rand(melspec.size(0), melspec.size(1), freq, requires_grad=True)
        optim = torch.optim.SGD([specgram], **self.sgdargs)
        loss = float("inf")
        # the inner fit needs autograd even when the caller runs under no_grad
        with torch.enable_grad():
            for _ in range(self.max_iter):
                optim.zero_grad()
                diff = melspec - specgram.matmul(self.fb)
                new_loss = diff.pow(2).sum(dim=-1).mean()
                new_loss.backward()
                optim.step()
                specgram.data = specgram.data.clamp(min=0)
                new_loss = new_loss.item()
                if new_loss < self.tolerance_loss or abs(loss - new_loss) < self.tolerance_change:
                    break
                loss = new_loss
        specgram.requires_grad_(False)
        return specgram.clamp(min=0).transpose(-1, -2).reshape(shape[:-2] + (freq, shape[-1]))


class MelDenoiser(nn.Module):
    def __init__(self, n_mels):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(n_mels, 64, 5, padding=2), nn.ReLU(),
                                 nn.Conv1d(64, n_mels, 5, padding=2), nn.Softplus())

    def forward(self, mel):
        return self.net(mel)


def make_batch(fb, batch, frames):
    linear = torch.rand(batch, fb.size(0), frames) ** 3
    clean = (linear.transpose(1, 2) @ fb).transpose(1, 2)
    return clean + 0.05 * torch.rand_like(clean), clean, linear


def validate(model, inverse_mel, fb, args):
    model.eval()
    with torch.no_grad():
        noisy, clean, linear = make_batch(fb, 4, args.frames)
        pred_mel = model(noisy)
        mel_l1 = F.l1_loss(pred_mel, clean).item()
        pred_linear = inverse_mel(pred_mel)
        lin_l1 = F.l1_loss(pred_linear, linear).item()
    model.train()
    return mel_l1, lin_l1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n_fft", type=int, default=126)
    parser.add_argument("--n_mels", type=int, default=32)
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--steps_per_epoch", type=int, default=20)
    args = parser.parse_args()
    torch.manual_seed(0)

    n_stft = args.n_fft // 2 + 1
    inverse_mel = InverseMelScale(n_stft, args.n_mels)
    fb = inverse_mel.fb
    model = MelDenoiser(args.n_mels)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        for _ in range(args.steps_per_epoch):
            noisy, clean, _ = make_batch(fb, 8, args.frames)
            loss = F.l1_loss(model(noisy), clean)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        mel_l1, lin_l1 = validate(model, inverse_mel, fb, args)
        print(f"epoch {epoch} train {loss.item():.4f} val mel-L1 {mel_l1:.4f} linear-L1 {lin_l1:.4f}")


if __name__ == "__main__":
    main()
