"""Single-object localisation: a small CNN regresses one bounding box (x1, y1, x2, y2, in
pixels of a 32x32 grid) per image, trained to maximise the IoU between predicted and ground
truth rectangles; IoU computed from rasterised score maps of the two rectangles."""
import numpy
import torch
import torch.nn as nn
from torch.nn.modules.loss import _Loss

torch.manual_seed(0)
BOUNDS = (32, 32)


class IoU_real(_Loss):
    def __init__(self):
        super().__init__()
        # define the grid of pixel coordinates
        grid = numpy.mgrid[0:BOUNDS[0], 0:BOUNDS[1]]
        self.grid = torch.FloatTensor(numpy.concatenate((grid[0][..., None], grid[1][..., None]), axis=-1))

    def score_map(self, boxes):
        # 1 where the grid point lies inside the rectangle, 0 otherwise
        y, x = self.grid[..., 0][None], self.grid[..., 1][None]
        inside = (x >= boxes[:, 0, None, None]) & (x <= boxes[:, 2, None, None]) \
            & (y >= boxes[:, 1, None, None]) & (y <= boxes[:, 3, None, None])
        return inside.float()

    def forward(self, pred_boxes, gt_boxes):
        pred_map, gt_map = self.score_map(pred_boxes), self.score_map(gt_boxes)
        intersection = (pred_map * gt_map).sum((1, 2))
        union = (pred_map + gt_map).clamp(max=1).sum((1, 2))
        return (1 - intersection / union.clamp(min=1)).mean()


class BoxRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.head = nn.Linear(32 * 16, 4)

    def forward(self, x):
        out = torch.sigmoid(self.head(self.features(x).flatten(1))) * (BOUNDS[0] - 1)
        x1y1 = torch.minimum(out[:, :2], out[:, 2:])
        x2y2 = torch.maximum(out[:, :2], out[:, 2:])
        return torch.cat([x1y1, x2y2], dim=1)


def random_batch(n=8):
    xy1 = torch.randint(0, 16, (n, 2)).float()
    wh = torch.randint(6, 15, (n, 2)).float()
    return torch.randn(n, 3, *BOUNDS), torch.cat([xy1, xy1 + wh], dim=1)


def main():
    model = BoxRegressor()
    criterion = IoU_real()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(10):
        images, gt_boxes = random_batch()
        pred_boxes = model(images)
        loss = criterion(pred_boxes, gt_boxes)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if it % 3 == 0:
            print(f"iter {it}: 1 - IoU = {loss.item():.4f}")


if __name__ == "__main__":
    main()
