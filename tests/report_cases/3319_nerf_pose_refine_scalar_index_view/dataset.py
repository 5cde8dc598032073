"""Synthetic multi-view ray dataset with noisy camera poses."""
import numpy as np
import torch


class RayDataset:
    def __init__(self, n_images=6, img_wh=(16, 16), batch_size=256, ray_sampling_strategy="all_images", seed=0):
        g = torch.Generator().manual_seed(seed)
        w, h = img_wh
        self.img_wh = img_wh
        self.batch_size = batch_size
        self.ray_sampling_strategy = ray_sampling_strategy
        ys, xs = torch.meshgrid(torch.linspace(-0.5, 0.5, h), torch.linspace(-0.5, 0.5, w), indexing="ij")
        self.directions = torch.stack([xs, ys, torch.ones_like(xs)], -1).reshape(-1, 3)
        poses = torch.eye(3, 4).repeat(n_images, 1, 1)
        poses[:, :, 3] = torch.randn(n_images, 3, generator=g) * 0.5
        poses[:, :, :3] += 0.05 * torch.randn(n_images, 3, 3, generator=g)
        self.poses = poses
        self.rgbs = torch.rand(n_images, h * w, 3, generator=g)

    def __len__(self):
        return 1000

    def __getitem__(self, i):
        if self.ray_sampling_strategy == "all_images":
            img_idxs = np.random.choice(len(self.poses), self.batch_size)
        elif self.ray_sampling_strategy == "same_image":
            img_idxs = np.random.choice(len(self.poses), 1)[0]
        else:
            raise ValueError(self.ray_sampling_strategy)
        pix_idxs = np.random.choice(self.img_wh[0] * self.img_wh[1], self.batch_size)
        return {"img_idxs": img_idxs, "pix_idxs": pix_idxs, "rgb": self.rgbs[img_idxs, pix_idxs]}
