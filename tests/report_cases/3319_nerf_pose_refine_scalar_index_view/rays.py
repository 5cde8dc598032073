"""Camera / ray helpers."""
import torch


def axisangle_to_R(v):
    """Rodrigues formula; v: (..., 3) axis-angle -> (..., 3, 3) rotation."""
    theta = v.norm(dim=-1, keepdim=True).clamp_min(1e-8)[..., None]
    k = v / theta[..., 0]
    zero = torch.zeros_like(k[..., 0])
    K = torch.stack([zero, -k[..., 2], k[..., 1],
                     k[..., 2], zero, -k[..., 0],
                     -k[..., 1], k[..., 0], zero], -1).reshape(*v.shape[:-1], 3, 3)
    eye = torch.eye(3, dtype=v.dtype).expand_as(K)
    return eye + torch.sin(theta) * K + (1 - torch.cos(theta)) * (K @ K)


def get_rays(directions, c2w):
    """directions: (N, 3) camera-space; c2w: (3, 4) shared pose or (N, 3, 4) per-ray poses."""
    if c2w.ndim == 2:
        rays_d = directions @ c2w[:, :3].T
    else:
        rays_d = (directions.unsqueeze(1) @ c2w[..., :3].transpose(1, 2)).squeeze(1)
    rays_d = rays_d / rays_d.norm(dim=-1, keepdim=True)
    rays_o = c2w[..., 3].expand(rays_d.shape)
    return rays_o, rays_d
