"""Joint semantic segmentation + depth estimation with per-task gradient logging."""
import torch
import torch.nn as nn
import torch.nn.functional as F

cfg = {"num_classes": 5, "width": 12, "iters": 4, "batch": 4, "size": 16, "lr": 1e-3,
       "w_seg": 1.0, "w_depth": 0.5}


class Backbone(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.enc = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
            nn.Conv2d(width, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
        )

    def forward(self, x):
        return self.enc(x)


class MultiHeadNet(nn.Module):
    def __init__(self, width, num_classes):
        super().__init__()
        self.backbone = Backbone(width)
        self.seg_head = nn.Conv2d(width, num_classes, 1)
        self.depth_head = nn.Sequential(nn.Conv2d(width, 1, 1), nn.Softplus())

    def forward(self, x):
        feats = self.backbone(x)
        return self.seg_head(feats), self.depth_head(feats).squeeze(1)


def shared_grad_norm(model):
    grads = [p.grad.norm() for p in model.backbone.parameters() if p.grad is not None]
    return torch.stack(grads).norm().item() if grads else 0.0


def main():
    torch.manual_seed(0)
    model = MultiHeadNet(cfg["width"], cfg["num_classes"])
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for it in range(cfg["iters"]):
        images = torch.rand(cfg["batch"], 3, cfg["size"], cfg["size"])
        seg_gt = torch.randint(0, cfg["num_classes"], (cfg["batch"], cfg["size"], cfg["size"]))
        depth_gt = torch.rand(cfg["batch"], cfg["size"], cfg["size"]) * 10

        seg_logits, depth_pred = model(images)
        seg_loss = F.cross_entropy(seg_logits, seg_gt) * cfg["w_seg"]
        depth_loss = F.l1_loss(depth_pred.log(), depth_gt.clamp(min=1e-3).log()) * cfg["w_depth"]

        optimizer.zero_grad()
        seg_loss.backward(retain_graph=True)
        g_seg = shared_grad_norm(model)
        depth_loss.backward()
        g_total = shared_grad_norm(model)
        optimizer.step()
        print(f"it {it}: seg {seg_loss.item():.3f} depth {depth_loss.item():.3f} "
              f"|g_seg| {g_seg:.3f} |g_total| {g_total:.3f}")


if __name__ == "__main__":
    main()
