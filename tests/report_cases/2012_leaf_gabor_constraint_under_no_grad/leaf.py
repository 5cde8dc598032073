"""LEAF-style learnable audio frontend: Gabor filterbank -> squared modulus -> pooling -> log."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def gabor_impulse_response(t, center, fwhm):
    denominator = 1.0 / (math.sqrt(2.0 * math.pi) * fwhm)
    gaussian = torch.exp(torch.tensordot(1.0 / (2. * fwhm.unsqueeze(1) ** 2), -t.unsqueeze(0) ** 2, dims=1))
    center_frequency_complex = center.type(torch.complex64)
    t_complex = t.type(torch.complex64)
    sinusoid = torch.exp(1j * torch.tensordot(center_frequency_complex.unsqueeze(1), t_complex.unsqueeze(0), dims=1))
    denominator = denominator.type(torch.complex64).unsqueeze(1)
    gaussian = gaussian.type(torch.complex64)
    return denominator * sinusoid * gaussian


def gabor_filters(kernel, size=65):
    t = torch.arange(-(size // 2), (size + 1) // 2, dtype=kernel.dtype)
    return gabor_impulse_response(t, center=kernel[:, 0], fwhm=kernel[:, 1])


class GaborConstraint(nn.Module):
    """Keeps center frequencies in [0, pi] and bandwidths in a sensible range."""

    def __init__(self, kernel_size):
        super().__init__()
        self._kernel_size = kernel_size

    def forward(self, kernel):
        mu_lower = 0.
        mu_upper = math.pi
        sigma_lower = 4 * math.sqrt(2 * math.log(2)) / math.pi
        sigma_upper = self._kernel_size * math.sqrt(2 * math.log(2)) / math.pi
        with torch.no_grad():
            clipped_mu = torch.clamp(kernel[:, 0], mu_lower, mu_upper).unsqueeze(1)
            clipped_sigma = torch.clamp(kernel[:, 1], sigma_lower, sigma_upper).unsqueeze(1)
        return torch.cat([clipped_mu, clipped_sigma], dim=-1)


class GaborConv1D(nn.Module):
    def __init__(self, filters, kernel_size, strides=1, padding='same'):
        super().__init__()
        self._filters = filters // 2
        self._kernel_size = kernel_size
        self._strides = strides
        self._padding = padding
        mel_low, mel_high = 0.2, 2.8
        centers = torch.linspace(mel_low, mel_high, self._filters)
        fwhms = torch.full((self._filters,), kernel_size / 4.0)
        self._kernel = nn.Parameter(torch.stack([centers, fwhms], dim=1))
        self._kernel_constraint = GaborConstraint(self._kernel_size)

    def forward(self, x):
        kernel = self._kernel_constraint(self._kernel)
        kernel = gabor_filters(kernel, self._kernel_size)
        real_filters = torch.real(kernel)
        img_filters = torch.imag(kernel)
        stacked_filters = torch.stack([real_filters, img_filters], dim=1)
        stacked_filters = stacked_filters.view(2 * self._filters, self._kernel_size).unsqueeze(1)
        return F.conv1d(x, stacked_filters, stride=self._strides, padding=self._padding)


class SquaredModulus(nn.Module):
    def forward(self, x):
        x = x.transpose(1, 2)
        output = 2 * F.avg_pool1d(x ** 2, kernel_size=2, stride=2)
        return output.transpose(1, 2)


class Leaf(nn.Module):
    def __init__(self, n_filters=8, window_len=17, sample_rate=800, window_stride=4):
        super().__init__()
        self.complex_conv = GaborConv1D(filters=2 * n_filters, kernel_size=window_len)
        self.activation = SquaredModulus()
        self.pooling = nn.AvgPool1d(kernel_size=window_len, stride=window_stride, padding=window_len // 2)

    def forward(self, x):
        if x.dim() == 2:
            x = x.unsqueeze(1)
        outputs = self.complex_conv(x)
        outputs = self.activation(outputs)
        outputs = self.pooling(outputs)
        outputs = torch.maximum(outputs, torch.tensor(1e-5))
        return torch.log(outputs)
