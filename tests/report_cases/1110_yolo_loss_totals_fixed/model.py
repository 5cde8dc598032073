import torch.nn as nn


class TinyDetector(nn.Module):
    """Grid detector: per cell 4 box offsets, 1 objectness logit, C class logits."""

    def __init__(self, num_classes=3, width=16):
        super().__init__()
        self.num_classes = num_classes
        self.backbone = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.SiLU(),
            nn.Conv2d(width, width, 3, stride=2, padding=1), nn.SiLU(),
        )
        self.pred = nn.Conv2d(width, 5 + num_classes, 1)

    def forward(self, x):
        out = self.pred(self.backbone(x))
        return {"box": out[:, :4], "obj": out[:, 4:5], "cls": out[:, 5:]}
