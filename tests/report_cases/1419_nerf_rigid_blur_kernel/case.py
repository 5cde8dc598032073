"""Deblurring NeRF toy: each ray is warped by a learned rigid motion before rendering."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

cfg = {
    "n_rays": 64,
    "n_samples": 16,
    "near": 2.0,
    "far": 6.0,
    "multires": 4,
    "netwidth": 32,
    "n_kernel": 3,
    "lrate": 5e-4,
    "n_iters": 3,
}


def positional_encoding(x, multires):
    out = [x]
    for i in range(multires):
        freq = 2.0 ** i
        out += [torch.sin(freq * x), torch.cos(freq * x)]
    return torch.cat(out, dim=-1)


class TinyNeRF(nn.Module):
    def __init__(self, multires, width):
        super().__init__()
        d_in = 3 + 3 * 2 * multires
        self.multires = multires
        self.pts_linears = nn.ModuleList([nn.Linear(d_in, width), nn.Linear(width, width)])
        self.alpha_linear = nn.Linear(width, 1)
        self.rgb_linear = nn.Linear(width, 3)

    def forward(self, pts):
        h = positional_encoding(pts, self.multires)
        for layer in self.pts_linears:
            h = F.relu(layer(h))
        return torch.sigmoid(self.rgb_linear(h)), self.alpha_linear(h).squeeze(-1)


def rigid_warp(w, v, pts):
    """Apply exp([w, v]) (axis-angle rotation + translation) to points."""
    theta = torch.norm(w, dim=-1, keepdim=True)
    theta += 1.0e-10
    axis = w / theta
    K = torch.zeros(w.shape[0], 3, 3)
    K[:, 0, 1], K[:, 0, 2] = -axis[:, 2], axis[:, 1]
    K[:, 1, 0], K[:, 1, 2] = axis[:, 2], -axis[:, 0]
    K[:, 2, 0], K[:, 2, 1] = -axis[:, 1], axis[:, 0]
    eye = torch.eye(3).expand_as(K)
    st, ct = torch.sin(theta)[..., None], torch.cos(theta)[..., None]
    R = eye + st * K + (1 - ct) * (K @ K)
    return torch.einsum("rij,rsj->rsi", R, pts) + v[:, None, :]


class RigidBlurringKernel(nn.Module):
    def __init__(self, n_kernel, n_rays):
        super().__init__()
        self.n_kernel = n_kernel
        self.rot = nn.Parameter(0.01 * torch.randn(n_kernel, n_rays, 3))
        self.trans = nn.Parameter(0.01 * torch.randn(n_kernel, n_rays, 3))
        self.weight_logits = nn.Parameter(torch.zeros(n_kernel))

    def forward(self, pts, render_fn):
        colors = []
        for k in range(self.n_kernel):
            warped = rigid_warp(self.rot[k], self.trans[k], pts)
            colors.append(render_fn(warped))
        weights = torch.softmax(self.weight_logits, dim=0)
        return (torch.stack(colors, 0) * weights[:, None, None]).sum(0)


def volume_render(model, z_vals):
    def render(pts):
        rgb, sigma = model(pts)
        dists = torch.cat([z_vals[..., 1:] - z_vals[..., :-1], torch.full_like(z_vals[..., :1], 1e10)], -1)
        alpha = 1.0 - torch.exp(-F.relu(sigma) * dists)
        trans = torch.cumprod(torch.cat([torch.ones_like(alpha[..., :1]), 1.0 - alpha + 1e-10], -1), -1)[..., :-1]
        weights = alpha * trans
        return (weights[..., None] * rgb).sum(-2)
    return render


def main():
    torch.manual_seed(0)
    n_rays, n_samples = cfg["n_rays"], cfg["n_samples"]
    rays_o = torch.zeros(n_rays, 3)
    rays_d = F.normalize(torch.randn(n_rays, 3) * 0.1 + torch.tensor([0.0, 0.0, 1.0]), dim=-1)
    t = torch.linspace(0.0, 1.0, n_samples)
    z_vals = (cfg["near"] * (1.0 - t) + cfg["far"] * t).expand(n_rays, n_samples)
    pts = rays_o[:, None, :] + rays_d[:, None, :] * z_vals[..., None]
    target_rgb = torch.rand(n_rays, 3)

    model = TinyNeRF(cfg["multires"], cfg["netwidth"])
    kernel = RigidBlurringKernel(cfg["n_kernel"], n_rays)
    grad_vars = list(model.parameters()) + list(kernel.parameters())
    optimizer = torch.optim.Adam(grad_vars, lr=cfg["lrate"], betas=(0.9, 0.999))

    for i in range(cfg["n_iters"]):
        rgb = kernel(pts, volume_render(model, z_vals))
        img_loss = F.mse_loss(rgb, target_rgb)
        psnr = -10.0 * math.log10(img_loss.item())
        optimizer.zero_grad()
        img_loss.backward()
        optimizer.step()
        print(f"iter {i}: loss {img_loss.item():.4f} psnr {psnr:.2f}")


if __name__ == "__main__":
    main()
