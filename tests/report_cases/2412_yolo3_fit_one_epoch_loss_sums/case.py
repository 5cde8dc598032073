"""YOLOv3-style training script (toy backbone, three detection scales).
fit_one_epoch tracks running train / val loss sums for the progress output."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class YoloBody(nn.Module):
    def __init__(self, anchors_mask, num_classes):
        super().__init__()
        out_ch = len(anchors_mask[0]) * (5 + num_classes)
        self.backbone = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.LeakyReLU(0.1)),
            nn.Sequential(nn.Conv2d(16, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.LeakyReLU(0.1)),
            nn.Sequential(nn.Conv2d(32, 64, 3, 2, 1), nn.BatchNorm2d(64), nn.LeakyReLU(0.1))])
        self.heads = nn.ModuleList([nn.Conv2d(c, out_ch, 1) for c in (64, 32, 16)])

    def forward(self, x):
        feats = []
        for stage in self.backbone:
            x = stage(x)
            feats.append(x)
        return [head(f) for head, f in zip(self.heads, reversed(feats))]


class YOLOLoss(nn.Module):
    def __init__(self, num_anchors, num_classes):
        super().__init__()
        self.num_anchors, self.bbox_attrs = num_anchors, 5 + num_classes

    def forward(self, prediction, targets):
        bs, _, h, w = prediction.shape
        p = prediction.view(bs, self.num_anchors, self.bbox_attrs, h, w).permute(0, 1, 3, 4, 2)
        t = targets[:, :h, :w, :].unsqueeze(1).expand_as(p)
        loss_xy = F.binary_cross_entropy_with_logits(p[..., :2], t[..., :2].sigmoid())
        loss_wh = F.mse_loss(p[..., 2:4], t[..., 2:4])
        loss_conf = F.binary_cross_entropy_with_logits(p[..., 4], (t[..., 4] > 0).float())
        loss_cls = F.binary_cross_entropy_with_logits(p[..., 5:], (t[..., 5:] > 0).float())
        return loss_xy + loss_wh + loss_conf + loss_cls


def batches(n, bs, num_classes):
    for _ in range(n):
        yield torch.randn(bs, 3, 64, 64), torch.randn(bs, 32, 32, 5 + num_classes)


def fit_one_epoch(net, yolo_losses, optimizer, epoch, epoch_size, epoch_size_val, Epoch, args):
    total_loss = 0
    val_loss = 0

    net.train()
    for iteration, (images, targets) in enumerate(batches(epoch_size, args.batch_size, args.num_classes)):
        optimizer.zero_grad()
        outputs = net(images)
        losses = [yolo_losses[i](outputs[i], targets) for i in range(len(outputs))]
        loss = sum(losses)
        loss.backward()
        optimizer.step()
        total_loss += loss
        if iteration % 5 == 0:
            print(f"Epoch {epoch + 1}/{Epoch} it {iteration + 1}/{epoch_size} "
                  f"total_loss {total_loss.item() / (iteration + 1):.4f}")

    net.eval()
    for iteration, (images_val, targets_val) in enumerate(batches(epoch_size_val, args.batch_size, args.num_classes)):
        with torch.no_grad():
            images_val = images_val.float()
        optimizer.zero_grad()
        outputs = net(images_val)
        losses = [yolo_losses[i](outputs[i], targets_val) for i in range(len(outputs))]
        loss = sum(losses)
        val_loss += loss
    print(f"Epoch {epoch + 1}/{Epoch} Total Loss: {total_loss.item() / epoch_size:.4f} "
          f"|| Val Loss: {val_loss.item() / epoch_size_val:.4f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_classes", type=int, default=3)
    parser.add_argument("--batch_size", type=int, default=4)
    parser.add_argument("--epoch_size", type=int, default=15)
    parser.add_argument("--epoch_size_val", type=int, default=5)
    parser.add_argument("--Epoch", type=int, default=2)
    args = parser.parse_args()
    torch.manual_seed(0)
    anchors_mask = [[6, 7, 8], [3, 4, 5], [0, 1, 2]]
    net = YoloBody(anchors_mask, args.num_classes)
    yolo_losses = [YOLOLoss(len(m), args.num_classes) for m in anchors_mask]
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=5e-4)
    lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.92)
    for epoch in range(args.Epoch):
        fit_one_epoch(net, yolo_losses, optimizer, epoch, args.epoch_size, args.epoch_size_val, args.Epoch, args)
        lr_scheduler.step()


if __name__ == "__main__":
    main()
