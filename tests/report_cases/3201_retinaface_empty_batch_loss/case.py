"""Training a tiny single-stage face detector; some batches contain only background crops."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from losses import LossLayer

torch.manual_seed(0)


def make_anchors(grid=8, size=0.25):
    cs = (torch.arange(grid).float() + 0.5) / grid
    cy, cx = torch.meshgrid(cs, cs, indexing="ij")
    cx, cy = cx.reshape(-1), cy.reshape(-1)
    half = size / 2
    return torch.stack([cx - half, cy - half, cx + half, cy + half], dim=1)


class TinyDetector(nn.Module):
    def __init__(self, num_anchors):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(8))
        self.cls_head = nn.Conv2d(16, 2, 1)
        self.box_head = nn.Conv2d(16, 4, 1)

    def forward(self, x):
        f = self.body(x)
        cls = self.cls_head(f).flatten(2).transpose(1, 2)
        box = self.box_head(f).flatten(2).transpose(1, 2)
        return F.softmax(cls, dim=-1), box


def make_batch(step, batch=4, max_faces=3):
    images = torch.randn(batch, 3, 32, 32)
    annotations = -torch.ones(batch, max_faces, 4)
    if step % 3 != 2:  # every third batch is a crop of pure background
        for b in range(batch):
            x0, y0 = torch.rand(2) * 0.6
            annotations[b, 0] = torch.tensor([x0, y0, x0 + 0.25, y0 + 0.25])
    return images, annotations


def train(steps=6):
    anchors = make_anchors()
    model = TinyDetector(anchors.shape[0])
    criterion = LossLayer()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    for step in range(steps):
        images, annotations = make_batch(step)
        classifications, bbox_regressions = model(images)
        cls_loss, box_loss = criterion(classifications, bbox_regressions, anchors, annotations)
        loss = cls_loss.mean() + box_loss.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
