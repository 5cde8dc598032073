"""Tiny NeRF-style radiance field with joint camera extrinsic refinement (dR, dT per image)."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from dataset import RayDataset
from rays import axisangle_to_R, get_rays

torch.manual_seed(0)
np.random.seed(0)

HPARAMS = dict(n_images=6, batch_size=256, lr=1e-2, pose_lr=1e-3, steps=12, optimize_ext=True,
               ray_sampling_strategy="same_image", n_samples=8)


class RadianceField(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 4))

    def forward(self, pts, dirs):
        out = self.net(torch.cat([pts, dirs], -1))
        return torch.sigmoid(out[..., :3]), F.softplus(out[..., 3])


def render(model, rays_o, rays_d, n_samples):
    t = torch.linspace(0.5, 2.5, n_samples)
    pts = rays_o[:, None] + rays_d[:, None] * t[None, :, None]
    rgb, sigma = model(pts, rays_d[:, None].expand_as(pts))
    alpha = 1 - torch.exp(-sigma * (t[1] - t[0]))
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1 - alpha[:, :-1] + 1e-10], -1), -1)
    weights = alpha * trans
    return {"rgb": (weights[..., None] * rgb).sum(1)}


class NeRFSystem(nn.Module):
    def __init__(self, hparams, train_dataset):
        super().__init__()
        self.hparams = hparams
        self.model = RadianceField()
        self.train_dataset = train_dataset
        self.register_buffer("directions", train_dataset.directions)
        self.register_buffer("poses", train_dataset.poses)
        n = len(train_dataset.poses)
        self.dR = nn.Parameter(torch.zeros(n, 3))
        self.dT = nn.Parameter(torch.zeros(n, 3))

    def forward(self, batch):
        poses = self.poses[batch["img_idxs"]].clone()
        directions = self.directions[batch["pix_idxs"]]
        if self.hparams["optimize_ext"]:
            dR = axisangle_to_R(self.dR[batch["img_idxs"]])
            poses[..., :3] = dR @ poses[..., :3]
            poses[..., 3] += self.dT[batch["img_idxs"]]
        rays_o, rays_d = get_rays(directions, poses)
        return render(self.model, rays_o, rays_d, self.hparams["n_samples"])

    def configure_optimizers(self):
        net_params = [p for n, p in self.named_parameters() if n not in ("dR", "dT")]
        opts = [torch.optim.Adam(net_params, self.hparams["lr"])]
        if self.hparams["optimize_ext"]:
            opts.append(torch.optim.Adam([self.dR, self.dT], self.hparams["pose_lr"]))
        return opts

    def training_step(self, batch):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            results = self(batch)
        return F.mse_loss(results["rgb"].float(), batch["rgb"])


def fit(hparams):
    dataset = RayDataset(n_images=hparams["n_images"], batch_size=hparams["batch_size"],
                         ray_sampling_strategy=hparams["ray_sampling_strategy"])
    system = NeRFSystem(hparams, dataset)
    opts = system.configure_optimizers()
    for step in range(hparams["steps"]):
        batch = dataset[step]
        loss = system.training_step(batch)
        for opt in opts:
            opt.zero_grad()
        loss.backward()
        for opt in opts:
            opt.step()
        if step % 4 == 0:
            print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    fit(HPARAMS)
