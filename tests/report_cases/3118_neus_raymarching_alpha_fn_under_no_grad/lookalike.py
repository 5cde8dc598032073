"""NeuS-style neural surface reconstruction with occupancy-free ray marching (nerfacc-style): samples
are pruned under torch.no_grad with an alpha function, then the kept samples are rendered with grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SDFNetwork(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, hidden), nn.Softplus(beta=100), nn.Linear(hidden, hidden),
                                 nn.Softplus(beta=100), nn.Linear(hidden, 1 + 8))
        self.color = nn.Sequential(nn.Linear(8 + 3, hidden), nn.ReLU(), nn.Linear(hidden, 3), nn.Sigmoid())
        self.log_inv_s = nn.Parameter(torch.tensor(2.0))

    def forward(self, points, with_grad=True):
        if with_grad:
            points = points.requires_grad_(True)
        out = self.mlp(points)
        sdf, feature = out[..., 0], out[..., 1:]
        grad = None
        if with_grad:
            grad = torch.autograd.grad(sdf, points, torch.ones_like(sdf), create_graph=True)[0]
        return sdf, feature, grad


def neus_alpha(sdf, normal, dirs, dists, inv_s):
    true_cos = (dirs * normal).sum(-1)
    est_next = sdf + F.relu(-true_cos) * dists * 0.5
    est_prev = sdf - F.relu(-true_cos) * dists * 0.5
    prev_cdf, next_cdf = torch.sigmoid(est_prev * inv_s), torch.sigmoid(est_next * inv_s)
    return ((prev_cdf - next_cdf + 1e-5) / (prev_cdf + 1e-5)).clamp(0.0, 1.0)


def ray_marching(rays_o, rays_d, alpha_fn, n_samples=16, alpha_thre=1e-3):
    with torch.no_grad():
        t = torch.linspace(0.5, 2.5, n_samples + 1)
        t_starts, t_ends = t[:-1].expand(rays_o.shape[0], -1), t[1:].expand(rays_o.shape[0], -1)
        alphas = alpha_fn(t_starts, t_ends)
        keep = alphas > alpha_thre
    return t_starts, t_ends, keep


class NeuSRenderer:
    def __init__(self, geometry):
        self.geometry = geometry

    def render(self, rays_o, rays_d):
        def alpha_fn(t_starts, t_ends):
            mid = (t_starts + t_ends)[..., None] / 2
            points = rays_o[:, None] + rays_d[:, None] * mid
            sdf, _, _ = self.geometry(points, with_grad=False)
            # cheap pruning estimate: no normals needed, assume rays hit the surface head-on
            normal = -rays_d[:, None].expand_as(points)
            dirs = rays_d[:, None].expand_as(points)
            return neus_alpha(sdf, normal, dirs, t_ends - t_starts, self.geometry.log_inv_s.exp())

        t_starts, t_ends, keep = ray_marching(rays_o, rays_d, alpha_fn)
        mid = (t_starts + t_ends)[..., None] / 2
        points = rays_o[:, None] + rays_d[:, None] * mid
        sdf, feature, normal = self.geometry(points, with_grad=True)
        dirs = rays_d[:, None].expand_as(points)
        alpha = neus_alpha(sdf, normal, dirs, t_ends - t_starts, self.geometry.log_inv_s.exp()) * keep
        trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1 - alpha + 1e-7], -1), -1)[:, :-1]
        weights = alpha * trans
        rgb = (weights[..., None] * self.geometry.color(torch.cat([feature, dirs], -1))).sum(1)
        eikonal = ((normal.norm(dim=-1) - 1) ** 2).mean()
        return rgb, eikonal


def train(steps=4):
    geometry = SDFNetwork()
    renderer = NeuSRenderer(geometry)
    optimizer = torch.optim.Adam(geometry.parameters(), lr=5e-4)
    for step in range(steps):
        rays_o = torch.zeros(32, 3) - torch.tensor([0.0, 0.0, 1.5])
        rays_d = F.normalize(torch.randn(32, 3) * 0.2 + torch.tensor([0.0, 0.0, 1.0]), dim=-1)
        target_rgb = torch.rand(32, 3)
        rgb, eikonal = renderer.render(rays_o, rays_d)
        loss = F.mse_loss(rgb, target_rgb) + 0.1 * eikonal
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
