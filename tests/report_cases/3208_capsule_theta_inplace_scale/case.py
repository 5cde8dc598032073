"""Part-capsule autoencoder (stacked-capsule style): every capsule predicts a pose for a learned template,
the templates are rendered with their affine poses and mixed to reconstruct the image."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PartCapsuleAE(nn.Module):
    def __init__(self, n_caps=4, template_size=7, image_size=16):
        super().__init__()
        self.n_caps, self.image_size = n_caps, image_size
        self.encoder = nn.Sequential(nn.Conv2d(1, 16, 3, stride=2, padding=1), nn.ReLU(),
                                     nn.Conv2d(16, 16, 3, stride=2, padding=1), nn.ReLU(),
                                     nn.Flatten(), nn.Linear(16 * 16, n_caps * 5))
        self.templates = nn.Parameter(torch.rand(n_caps, 1, template_size, template_size))

    def decode_pose(self, raw):
        pose = torch.sigmoid(raw[..., :4])        # scale, rotation, tx, ty in (0, 1)
        scale = 0.5 + pose[..., 0]
        theta = pose[..., 1]
        theta *= 2. * math.pi                     # rotation angle in radians
        tx, ty = pose[..., 2] - 0.5, pose[..., 3] - 0.5
        cos, sin = torch.cos(theta) * scale, torch.sin(theta) * scale
        row1 = torch.stack([cos, -sin, tx], dim=-1)
        row2 = torch.stack([sin, cos, ty], dim=-1)
        return torch.stack([row1, row2], dim=-2)  # (B, K, 2, 3)

    def forward(self, x):
        b = x.shape[0]
        raw = self.encoder(x).view(b, self.n_caps, 5)
        affine = self.decode_pose(raw)
        presence = torch.sigmoid(raw[..., 4])
        grid = F.affine_grid(affine.view(-1, 2, 3), (b * self.n_caps, 1, self.image_size, self.image_size),
                             align_corners=False)
        templates = self.templates.repeat(b, 1, 1, 1)
        rendered = F.grid_sample(templates, grid, align_corners=False).view(b, self.n_caps, self.image_size,
                                                                         self.image_size)
        return (presence[..., None, None] * rendered).sum(1, keepdim=True)


def train(steps=4):
    model = PartCapsuleAE()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        images = (torch.rand(8, 1, 16, 16) > 0.8).float()
        recon = model(images)
        loss = F.mse_loss(recon, images)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
