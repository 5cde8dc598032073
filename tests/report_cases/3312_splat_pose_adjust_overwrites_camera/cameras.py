"""Minimal camera objects and a differentiable point-splat renderer."""
import torch


class Camera:
    def __init__(self, uid, w2c, image, focal=20.0, size=16):
        self.uid = uid
        self.world_view_transform = w2c
        self.image = image
        self.focal, self.size = focal, size
        self.camera_center = w2c.inverse()[:3, 3]


def look_at_w2c(angle, radius=4.0):
    eye = torch.tensor([radius * torch.cos(angle), radius * torch.sin(angle), 1.0])
    fwd = -eye / eye.norm()
    right = torch.linalg.cross(fwd, torch.tensor([0.0, 0.0, 1.0]))
    right = right / right.norm()
    up = torch.linalg.cross(right, fwd)
    R = torch.stack([right, up, fwd])
    w2c = torch.eye(4)
    w2c[:3, :3] = R
    w2c[:3, 3] = -R @ eye
    return w2c


def render(points, colors, w2c, focal, size, sigma=0.8):
    pts_h = torch.cat([points, torch.ones(points.size(0), 1)], 1)
    cam = (w2c @ pts_h.t()).t()[:, :3]
    z = cam[:, 2].clamp_min(0.1)
    uv = focal * cam[:, :2] / z.unsqueeze(-1) + size / 2
    ys, xs = torch.meshgrid(torch.arange(size).float(), torch.arange(size).float(), indexing="ij")
    grid = torch.stack([xs, ys], -1).view(-1, 1, 2)
    w = torch.exp(-((grid - uv.unsqueeze(0)) ** 2).sum(-1) / (2 * sigma ** 2))
    img = (w.unsqueeze(-1) * torch.sigmoid(colors).unsqueeze(0)).sum(1)
    return img.view(size, size, 3).clamp(0, 1)
