import math
import torch
import torch.nn as nn


def euler_angles_to_matrix(angles):
    """XYZ Euler angles (N, 3) -> rotation matrices (N, 3, 3)."""
    x, y, z = angles.unbind(-1)
    one, zero = torch.ones_like(x), torch.zeros_like(x)
    rx = torch.stack([one, zero, zero, zero, x.cos(), -x.sin(), zero, x.sin(), x.cos()], -1).view(-1, 3, 3)
    ry = torch.stack([y.cos(), zero, y.sin(), zero, one, zero, -y.sin(), zero, y.cos()], -1).view(-1, 3, 3)
    rz = torch.stack([z.cos(), -z.sin(), zero, z.sin(), z.cos(), zero, zero, zero, one], -1).view(-1, 3, 3)
    return rx @ ry @ rz


class PerspectiveCameras:
    """Batch of pinhole cameras (a plain container, as in 3-D rendering libraries)."""

    def __init__(self, focal_length, principal_point, R, T):
        self.focal_length, self.principal_point, self.R, self.T = focal_length, principal_point, R, T

    def transform_points_screen(self, points):  # points: (P, 3) world -> (N, P, 2)
        cam = torch.einsum("nij,pj->npi", self.R, points) + self.T[:, None]
        return self.focal_length[:, None] * cam[..., :2] / cam[..., 2:3] + self.principal_point[:, None]


class CameraParameter(nn.Module):
    """Learnable extrinsics of a calibrated multi-camera rig; intrinsics are fixed buffers."""

    def __init__(self, n_cams=4):
        super().__init__()
        self.register_buffer("focal_length_list", torch.full((n_cams, 1), 500.0))
        self.register_buffer("principal_point_list", torch.full((n_cams, 2), 256.0))
        angles = torch.linspace(0, 2 * math.pi, n_cams + 1)[:-1]
        self.rvec_euler_angle_list = nn.Parameter(torch.stack([0.05 * torch.ones(n_cams), angles, torch.zeros(n_cams)], 1))
        self.tvec_list = nn.Parameter(torch.tensor([[0.0, 0.0, 6.0]]).repeat(n_cams, 1))

    def forward(self):
        return PerspectiveCameras(focal_length=self.focal_length_list,
                                  principal_point=self.principal_point_list,
                                  R=euler_angles_to_matrix(self.rvec_euler_angle_list),
                                  T=self.tvec_list)
