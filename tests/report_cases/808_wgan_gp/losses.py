"""Gradient penalty from "Improved Training of Wasserstein GANs"."""
import torch


def gradient_penalty(critic, real, fake):
    eps = torch.rand(real.size(0), 1)
    interpolates = (eps * real + (1 - eps) * fake).requires_grad_(True)
    mixed_scores = critic(interpolates)
    gradient = torch.autograd.grad(
        inputs=interpolates,
        outputs=mixed_scores,
        grad_outputs=torch.ones_like(mixed_scores),
        create_graph=True,
        retain_graph=True,
    )[0]
    gradient_norm = gradient.view(gradient.size(0), -1).norm(2, dim=1)
    return torch.mean((gradient_norm - 1) ** 2)
