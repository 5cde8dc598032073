"""CDPN-style rotation branch: a conv head predicts per-pixel object
coordinates as bin classifications for x, y and z (coor_bin classes each)
with the ground-truth mask weighting the loss.  train.py written from test.py's post-processing.  Synthetic
RoI crops."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class cfg:
    class network:
        coor_bin = 16
    class train:
        lr = 1e-3
        iters = 3
        batch = 2


class RotHead(nn.Module):
    def __init__(self, bins):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1), nn.ReLU(), nn.Conv2d(16, 16, 3, 1, 1), nn.ReLU())
        self.coor_x = nn.Conv2d(16, bins + 1, 1)
        self.coor_y = nn.Conv2d(16, bins + 1, 1)
        self.coor_z = nn.Conv2d(16, bins + 1, 1)

    def forward(self, x):
        f = self.backbone(x)
        return self.coor_x(f), self.coor_y(f), self.coor_z(f)


def make_batch(b, size=8):
    rgb = torch.randn(b, 3, size, size)
    coor_gt = torch.rand(b, size, size, 3) * 2 - 1      # normalized model coordinates
    mask_gt = (torch.rand(b, 1, size, size) > 0.3).float()
    return rgb, coor_gt, mask_gt


def main():
    torch.manual_seed(0)
    model = RotHead(cfg.network.coor_bin)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.train.lr)
    for it in range(cfg.train.iters):
        rgb, coor_gt, mask_gt = make_batch(cfg.train.batch)
        output_coor_x_, output_coor_y_, output_coor_z_ = model(rgb)

        output_coor_ = torch.stack([torch.argmax(output_coor_x_, axis=1),
                                    torch.argmax(output_coor_y_, axis=1),
                                    torch.argmax(output_coor_z_, axis=1)], axis=3)
        output_coor_[output_coor_ == cfg.network.coor_bin] = 0
        output_coor_ = 2.0 * output_coor_.float() / (cfg.network.coor_bin - 1) - 1.0

        loss_coor = (torch.abs(output_coor_ - coor_gt) * mask_gt.permute(0, 2, 3, 1)).mean()
        loss = loss_coor

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it}: loss_coor {loss_coor.item():.4f}")


if __name__ == "__main__":
    main()
