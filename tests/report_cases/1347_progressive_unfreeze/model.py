import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self, in_dim=12, width=24):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Linear(in_dim, width), nn.LayerNorm(width), nn.GELU())
        self.layer2 = nn.Sequential(nn.Linear(width, width), nn.LayerNorm(width), nn.GELU())
        self.out_features = width

    def forward(self, x):
        return self.layer2(self.layer1(x))


class Classifier(nn.Module):
    def __init__(self, num_classes=10, **kw):
        super().__init__()
        self.backbone = Backbone(**kw)
        self.head = nn.Linear(self.backbone.out_features, num_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


def freeze(module):
    for p in module.parameters():
        p.requires_grad = False


def unfreeze(module):
    for p in module.parameters():
        p.requires_grad = True
