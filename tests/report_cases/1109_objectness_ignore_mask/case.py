"""Dense anchor-free head: objectness + class scores per location, with ignore regions."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DenseHead(nn.Module):
    NUM_CLASSES = 3

    def __init__(self, in_channels=16):
        super().__init__()
        self.neck = nn.Sequential(nn.Conv2d(3, in_channels, 3, padding=1), nn.ReLU())
        self.heads = nn.ModuleDict({
            "obj": nn.Conv2d(in_channels, 1, 1),
            "cls": nn.Conv2d(in_channels, self.NUM_CLASSES, 1),
        })

    def forward(self, images, ignore_mask=None):
        feats = self.neck(images)
        scores = {name: torch.sigmoid(head(feats)) for name, head in self.heads.items()}
        if ignore_mask is not None:
            # crowd / out-of-image locations never count as objects
            scores["obj"][ignore_mask] = 0.0
        return scores


def make_batch(batch=4, size=8):
    images = torch.randn(batch, 3, size, size)
    obj_t = (torch.rand(batch, 1, size, size) > 0.8).float()
    cls_t = F.one_hot(torch.randint(0, DenseHead.NUM_CLASSES, (batch, size, size)),
                      DenseHead.NUM_CLASSES).permute(0, 3, 1, 2).float()
    ignore = torch.zeros(batch, 1, size, size, dtype=torch.bool)
    ignore[..., :1, :] = True
    obj_t[ignore] = 0.0
    return images, obj_t, cls_t, ignore


def criterion(scores, obj_t, cls_t):
    loss_obj = F.binary_cross_entropy(scores["obj"], obj_t)
    loss_cls = F.binary_cross_entropy(scores["cls"], cls_t, weight=obj_t.expand_as(cls_t))
    return loss_obj + loss_cls


if __name__ == "__main__":
    torch.manual_seed(0)
    model = DenseHead()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(5):
        images, obj_t, cls_t, ignore = make_batch()
        scores = model(images, ignore_mask=ignore)
        loss = criterion(scores, obj_t, cls_t)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} loss {loss.item():.4f}")
