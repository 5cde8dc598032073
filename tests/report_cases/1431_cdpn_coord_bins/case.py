"""Dense object-coordinate regression head (CDPN-style) trained on synthetic crops."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Config:
    coor_bin = 16
    crop = 8
    batch = 4
    lr = 1e-3
    iters = 3


cfg = Config()


class RotHeadNet(nn.Module):
    def __init__(self, in_ch=3, num_bins=cfg.coor_bin):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(in_ch, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        )
        # one classification map per coordinate axis + an extra "background" bin
        self.out_x = nn.Conv2d(16, num_bins + 1, 1)
        self.out_y = nn.Conv2d(16, num_bins + 1, 1)
        self.out_z = nn.Conv2d(16, num_bins + 1, 1)

    def forward(self, x):
        f = self.features(x)
        return self.out_x(f), self.out_y(f), self.out_z(f)


def decode_coords(output_coor_x_, output_coor_y_, output_coor_z_):
    output_coor_ = torch.stack([torch.argmax(output_coor_x_, dim=1),
                                torch.argmax(output_coor_y_, dim=1),
                                torch.argmax(output_coor_z_, dim=1)], dim=-1)
    output_coor_[output_coor_ == cfg.coor_bin] = 0
    output_coor_ = 2.0 * output_coor_.float() / (cfg.coor_bin - 1.0) - 1.0  # [-1,1]
    return output_coor_


def main():
    torch.manual_seed(0)
    net = RotHeadNet()
    optimizer = torch.optim.RMSprop(net.parameters(), lr=cfg.lr)
    for it in range(cfg.iters):
        img = torch.rand(cfg.batch, 3, cfg.crop, cfg.crop)
        gt_coor = torch.rand(cfg.batch, cfg.crop, cfg.crop, 3) * 2 - 1
        mask = (torch.rand(cfg.batch, cfg.crop, cfg.crop, 1) > 0.3).float()

        out_x, out_y, out_z = net(img)
        pred_coor = decode_coords(out_x, out_y, out_z)
        loss = F.l1_loss(pred_coor * mask, gt_coor * mask)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it}: coor loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
