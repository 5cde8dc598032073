"""Tiny generator / discriminator pair for vector data."""
import torch
import torch.nn as nn

LATENT = 6
DATA = 10


def build_generator():
    return nn.Sequential(
        nn.Linear(LATENT, 32),
        nn.LeakyReLU(0.2),
        nn.Linear(32, DATA),
        nn.Tanh(),
    )


def build_discriminator():
    return nn.Sequential(
        nn.Linear(DATA, 32),
        nn.LeakyReLU(0.2),
        nn.Linear(32, 1),
    )


def sample_noise(n):
    return torch.randn(n, LATENT)
