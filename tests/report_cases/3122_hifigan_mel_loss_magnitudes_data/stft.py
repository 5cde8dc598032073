import torch


def mel_filterbank(n_mels, n_freq, sr=8000):
    """Triangular mel filters (n_mels, n_freq)."""
    def hz_to_mel(f):
        return 2595 * torch.log10(1 + f / 700)

    def mel_to_hz(m):
        return 700 * (10 ** (m / 2595) - 1)

    freqs = torch.linspace(0, sr / 2, n_freq)
    mels = mel_to_hz(torch.linspace(hz_to_mel(torch.tensor(0.0)), hz_to_mel(torch.tensor(sr / 2)), n_mels + 2))
    fb = torch.zeros(n_mels, n_freq)
    for i in range(n_mels):
        lo, center, hi = mels[i], mels[i + 1], mels[i + 2]
        up = (freqs - lo) / (center - lo)
        down = (hi - freqs) / (hi - center)
        fb[i] = torch.clamp(torch.minimum(up, down), min=0)
    return fb


class TacotronSTFT(torch.nn.Module):
    def __init__(self, filter_length=64, hop_length=16, win_length=64, n_mel_channels=16):
        super().__init__()
        self.filter_length, self.hop_length, self.win_length = filter_length, hop_length, win_length
        self.register_buffer("mel_basis", mel_filterbank(n_mel_channels, filter_length // 2 + 1))
        self.register_buffer("window", torch.hann_window(win_length))

    def mel_spectrogram(self, y):
        """y: (B, T) waveform in [-1, 1] -> (B, n_mels, frames) log-mel."""
        spec = torch.stft(y, self.filter_length, self.hop_length, self.win_length,
                          window=self.window, return_complex=True)
        magnitudes = spec.abs()
        magnitudes = magnitudes.data
        mel_output = torch.matmul(self.mel_basis, magnitudes)
        return torch.log(torch.clamp(mel_output, min=1e-5))
