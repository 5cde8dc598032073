"""Motion retargeting generator and a patch discriminator for pose sequences."""
import torch
import torch.nn as nn


class Retargeter(nn.Module):
    def __init__(self, joints=5, hidden=32):
        super().__init__()
        self.enc = nn.GRU(joints * 3, hidden, batch_first=True)
        self.dec = nn.Linear(hidden, joints * 3)

    def forward(self, motion):
        h, _ = self.enc(motion)
        return motion + self.dec(h)


class PatchDiscriminator(nn.Module):
    def __init__(self, joints=5):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(joints * 3, 16, 3, padding=1), nn.LeakyReLU(0.2),
            nn.Conv1d(16, 1, 3, padding=1),
        )

    def forward(self, motion):
        return self.net(motion.transpose(1, 2))
