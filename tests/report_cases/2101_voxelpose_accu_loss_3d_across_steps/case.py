"""VoxelPose-style training script: multi-view 3D human pose from precomputed
2D heatmaps (synthetic data)."""
import torch
from torch.utils.data import DataLoader, TensorDataset

from model import MultiPersonPoseNet
from function import train_3d

CONFIG = {
    "joints": 5,
    "views": 3,
    "batch_size": 2,
    "accumulation_steps": 2,
    "lr": 1e-3,
    "epochs": 2,
}


def make_loader(cfg, n=12):
    g = torch.Generator().manual_seed(0)
    heatmaps = torch.rand(n, cfg["views"], cfg["joints"], 16, 16, generator=g)
    targets_3d = torch.randn(n, cfg["joints"], 3, generator=g)
    root_target = (torch.rand(n, 1, 8, 8, 8, generator=g) > 0.9).float()
    ds = TensorDataset(heatmaps, targets_3d, root_target)
    return DataLoader(ds, batch_size=cfg["batch_size"], shuffle=True)


def main():
    torch.manual_seed(0)
    model = MultiPersonPoseNet(joints=CONFIG["joints"])
    optimizer = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])
    loader = make_loader(CONFIG)
    for epoch in range(CONFIG["epochs"]):
        train_3d(CONFIG, model, optimizer, loader, epoch)


if __name__ == "__main__":
    main()
