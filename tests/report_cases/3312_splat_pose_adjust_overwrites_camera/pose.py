"""Learnable per-camera pose corrections (so(3) x R^3, small-angle exponential map)."""
import torch
import torch.nn as nn


def skew(w):
    zero = torch.zeros((), dtype=w.dtype)
    return torch.stack([torch.stack([zero, -w[2], w[1]]),
                        torch.stack([w[2], zero, -w[0]]),
                        torch.stack([-w[1], w[0], zero])])


class PoseAdjust(nn.Module):
    def __init__(self, num_cameras):
        super().__init__()
        self.embeds = nn.Embedding(num_cameras, 6)
        nn.init.zeros_(self.embeds.weight)

    def forward(self, c2w, camera_id):
        d = self.embeds(camera_id)[0]
        R = torch.matrix_exp(skew(d[:3]))
        delta = torch.cat([torch.cat([R, d[3:].unsqueeze(-1)], 1), torch.eye(4)[3:]], 0)
        return c2w @ delta
