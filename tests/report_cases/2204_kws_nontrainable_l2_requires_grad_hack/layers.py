"""Neural-module style building blocks (modelled on NeMo 0.x NeuralModules)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TrainableNM(nn.Module):
    """A module whose parameters are optimized."""


class NonTrainableNM(nn.Module):
    """A module without trainable weights: the framework runs it in inference fashion."""

    def __call__(self, *args, **kwargs):
        with torch.no_grad():
            return super().__call__(*args, **kwargs)


class L2Regularizer(NonTrainableNM):
    """Performs L2 regularization over samples,
    i.e. makes the sum of squares of embeddings equal to 1
    """

    def regularize(self, embeds):
        l2_embeds = F.normalize(embeds, p=2, dim=-1)
        l2_embeds.requires_grad = True      # <==== uncomment this if you run into var has no gradient problem
        return l2_embeds

    def forward(self, embeds):
        return self.regularize(embeds)


class Res15Encoder(TrainableNM):
    """Tiny residual 1-D conv encoder over MFCC frames -> utterance embedding."""

    def __init__(self, n_mels=40, channels=45, emb_dim=32, n_layers=4):
        super().__init__()
        self.conv0 = nn.Conv1d(n_mels, channels, 3, padding=1, bias=False)
        self.convs = nn.ModuleList([nn.Conv1d(channels, channels, 3, padding=2 ** (i // 2),
                                              dilation=2 ** (i // 2), bias=False) for i in range(n_layers)])
        self.bns = nn.ModuleList([nn.BatchNorm1d(channels, affine=False) for _ in range(n_layers)])
        self.proj = nn.Linear(channels, emb_dim)

    def forward(self, audio_signal):
        x = F.relu(self.conv0(audio_signal))
        old_x = x
        for i, (conv, bn) in enumerate(zip(self.convs, self.bns)):
            y = F.relu(conv(x))
            if i > 0 and i % 2 == 0:
                x = y + old_x
                old_x = x
            else:
                x = y
            x = bn(x)
        return self.proj(x.mean(dim=-1))
