import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def mel_filter_params(n_filters, min_freq, max_freq, sample_rate):
    mel = lambda f: 2595.0 * math.log10(1.0 + f / 700.0)
    inv_mel = lambda m: 700.0 * (10 ** (m / 2595.0) - 1.0)
    mels = torch.linspace(mel(min_freq), mel(max_freq), n_filters + 2)
    hz = torch.tensor([inv_mel(float(m)) for m in mels])
    center = hz[1:-1] / sample_rate * 2 * math.pi
    fwhm = (hz[2:] - hz[:-2]) / sample_rate
    sigma = math.sqrt(2 * math.log(2)) / (math.pi * fwhm)
    return torch.stack([center, sigma], dim=1)


def gabor_filters(kernel, size):
    t = torch.arange(-(size // 2), (size + 1) // 2, dtype=torch.float32)
    center, sigma = kernel[:, 0:1], kernel[:, 1:2]
    denom = 1.0 / (math.sqrt(2 * math.pi) * sigma)
    gaussian = torch.exp(-t ** 2 / (2 * sigma ** 2))
    sinusoid = torch.exp(1j * center * t)
    return denom * sinusoid * gaussian


class GaborConstraint(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self._kernel_size = kernel_size

    def forward(self, kernel):
        mu_lower = 0.0
        mu_upper = math.pi
        sigma_lower = 4 * math.sqrt(2 * math.log(2)) / math.pi
        sigma_upper = self._kernel_size * math.sqrt(2 * math.log(2)) / math.pi
        clipped_mu = torch.clamp(kernel[:, 0], mu_lower, mu_upper).unsqueeze(1)
        clipped_sigma = torch.clamp(kernel[:, 1], sigma_lower, sigma_upper).unsqueeze(1)
        return torch.cat([clipped_mu, clipped_sigma], dim=-1)


class GaborConv1D(nn.Module):
    def __init__(self, filters, kernel_size, stride, sample_rate=16000):
        super().__init__()
        self._filters = filters // 2
        self._kernel_size = kernel_size
        self._stride = stride
        self._kernel = nn.Parameter(mel_filter_params(self._filters, 60.0, 7800.0, sample_rate))
        self._constraint = GaborConstraint(kernel_size)

    def forward(self, x):
        kernel = self._constraint(self._kernel)
        filters = gabor_filters(kernel, self._kernel_size)
        real_filters, img_filters = filters.real, filters.imag
        stacked = torch.stack([real_filters, img_filters], dim=1).view(2 * self._filters, self._kernel_size)
        return F.conv1d(x, stacked.unsqueeze(1), stride=self._stride, padding=self._kernel_size // 2)


class LeafFrontend(nn.Module):
    def __init__(self, n_filters=40, window_len=401, sample_rate=16000, window_stride=160):
        super().__init__()
        self.complex_conv = GaborConv1D(2 * n_filters, window_len, 1, sample_rate)
        self.window_len, self.window_stride = window_len, window_stride
        w = torch.exp(-0.5 * (torch.linspace(-1, 1, window_len) / 0.4) ** 2)
        self.register_buffer("pool_window", (w / w.sum()).view(1, 1, -1).repeat(n_filters, 1, 1))
        self.n_filters = n_filters

    def forward(self, wav):
        out = self.complex_conv(wav)
        b, c, t = out.shape
        out = out.view(b, c // 2, 2, t).pow(2).sum(dim=2)
        out = F.conv1d(out, self.pool_window, stride=self.window_stride,
                       padding=self.window_len // 2, groups=self.n_filters)
        return torch.log(out + 1e-5)


class AudioClassifier(nn.Module):
    def __init__(self, n_filters=40, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(n_filters, 32, 3, padding=1), nn.BatchNorm1d(32), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, n_classes))

    def forward(self, feats):
        return self.net(feats)


def synthetic_tones(n, n_classes=4, sample_rate=16000, seconds=0.25):
    t = torch.arange(int(sample_rate * seconds)) / sample_rate
    labels = torch.randint(0, n_classes, (n,))
    freqs = 300.0 * (labels.float() + 1) + 30 * torch.randn(n)
    wav = torch.sin(2 * math.pi * freqs[:, None] * t) + 0.3 * torch.randn(n, t.numel())
    return wav.unsqueeze(1), labels


if __name__ == "__main__":
    frontend = LeafFrontend()
    classifier = AudioClassifier()
    frontend_opt = torch.optim.Adam(frontend.parameters(), lr=1e-3, amsgrad=True)
    classifier_opt = torch.optim.Adam(classifier.parameters(), lr=1e-3)
    wav, labels = synthetic_tones(32)
    for epoch in range(3):
        for i in range(0, len(wav), 8):
            logits = classifier(frontend(wav[i:i + 8]))
            loss = F.cross_entropy(logits, labels[i:i + 8])
            frontend_opt.zero_grad()
            classifier_opt.zero_grad()
            loss.backward()
            frontend_opt.step()
            classifier_opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
