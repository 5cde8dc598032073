"""Tiny single-scale YOLO-style detector on 32x32 synthetic images with one
square object each.  The Detect head decodes grid offsets and anchor-relative
sizes into pixel boxes; the box loss is an L1 on the decoded boxes of the
responsible cell, objectness is a BCE over all cells."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
IMG, STRIDE, NA = 32, 8, 2
ANCHORS = torch.tensor([[8.0, 8.0], [14.0, 14.0]])


class Detect(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.no = 5                                   # x, y, w, h, obj
        self.m = nn.Conv2d(ch, NA * self.no, 1)
        ny = nx = IMG // STRIDE
        yv, xv = torch.meshgrid(torch.arange(ny), torch.arange(nx), indexing="ij")
        self.register_buffer("grid", torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2).float())
        self.register_buffer("anchor_grid", ANCHORS.view(1, NA, 1, 1, 2))

    def forward(self, x):
        x = self.m(x)
        bs, _, ny, nx = x.shape
        x = x.view(bs, NA, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
        y = x.sigmoid()
        y[..., 0:2] = (y[..., 0:2] * 2. - 0.5 + self.grid) * STRIDE          # xy
        y[..., 2:4] = (y[..., 2:4] * 2) ** 2 * self.anchor_grid               # wh
        return y


class TinyYolo(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.SiLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.SiLU(),
                                      nn.Conv2d(32, 32, 3, 2, 1), nn.SiLU())
        self.detect = Detect(32)

    def forward(self, img):
        return self.detect(self.backbone(img))


def make_batch(n=8):
    img = torch.rand(n, 3, IMG, IMG) * 0.2
    boxes = []
    for i in range(n):
        s = int(torch.randint(6, 14, (1,)))
        x0, y0 = [int(v) for v in torch.randint(0, IMG - s, (2,))]
        img[i, :, y0:y0 + s, x0:x0 + s] = 1.0
        boxes.append([x0 + s / 2, y0 + s / 2, s, s])
    return img, torch.tensor(boxes)


def compute_loss(pred, boxes):
    bs = pred.size(0)
    gx, gy = (boxes[:, 0] // STRIDE).long(), (boxes[:, 1] // STRIDE).long()
    a = (boxes[:, 2] > 11).long()                      # pick the anchor by size
    obj_target = torch.zeros(pred.shape[:4])
    obj_target[torch.arange(bs), a, gy, gx] = 1.0
    matched = pred[torch.arange(bs), a, gy, gx]        # [bs, 5]
    box_loss = F.l1_loss(matched[:, :4], boxes) / IMG
    obj_loss = F.binary_cross_entropy(pred[..., 4].clamp(1e-6, 1 - 1e-6), obj_target)
    return box_loss + obj_loss


def main():
    model = TinyYolo()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for it in range(6):
        img, boxes = make_batch()
        loss = compute_loss(model(img), boxes)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"iter {it} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
