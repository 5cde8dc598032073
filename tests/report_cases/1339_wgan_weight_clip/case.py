"""WGAN (weight clipping) on a 2-D ring of Gaussians."""
import math

import torch
import torch.nn as nn

from trainer import WGANTrainer

Z_DIM = 4
BATCH_SIZE = 32
NUM_EPOCHS = 2
BATCHES_PER_EPOCH = 2


def ring_batch(n, modes=8, radius=2.0):
    k = torch.randint(0, modes, (n,)).float()
    angle = 2 * math.pi * k / modes
    centers = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    return centers + 0.05 * torch.randn(n, 2)


def build_models():
    gen = nn.Sequential(nn.Linear(Z_DIM, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
    critic = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 32), nn.LeakyReLU(0.2),
                           nn.Linear(32, 1))
    return gen, critic


if __name__ == "__main__":
    torch.manual_seed(0)
    gen, critic = build_models()
    trainer = WGANTrainer(gen, critic, Z_DIM, critic_iterations=3)
    step = 0
    for epoch in range(NUM_EPOCHS):
        for batch_idx in range(BATCHES_PER_EPOCH):
            loss_c, loss_g = trainer.train_batch(ring_batch(BATCH_SIZE))
            print(f"Epoch [{epoch}/{NUM_EPOCHS}] Batch {batch_idx} Loss D: {loss_c:.4f}, loss G: {loss_g:.4f}")
            step += 1
