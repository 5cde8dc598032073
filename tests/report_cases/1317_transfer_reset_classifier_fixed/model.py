"""Minimal timm-like classifier with a swappable head."""
import torch
import torch.nn as nn


class ConvStem(nn.Module):
    def __init__(self, in_chans, width):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(in_chans, width, 3, padding=1, bias=False), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
            nn.Conv2d(width, width * 2, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(width * 2),
            nn.ReLU(inplace=True),
        )
        self.num_features = width * 2

    def forward(self, x):
        return self.body(x)


class TinyNet(nn.Module):
    def __init__(self, num_classes=1000, in_chans=3, width=8, drop_rate=0.0):
        super().__init__()
        self.backbone = ConvStem(in_chans, width)
        self.num_features = self.backbone.num_features
        self.global_pool = nn.AdaptiveAvgPool2d(1)
        self.drop_rate = drop_rate
        self.head = nn.Linear(self.num_features, num_classes) if num_classes > 0 else nn.Identity()

    def get_classifier(self):
        return self.head

    def reset_classifier(self, num_classes):
        self.head = nn.Linear(self.num_features, num_classes) if num_classes > 0 else nn.Identity()

    def forward_features(self, x):
        return torch.flatten(self.global_pool(self.backbone(x)), 1)

    def forward(self, x):
        x = self.forward_features(x)
        if self.drop_rate:
            x = nn.functional.dropout(x, p=self.drop_rate, training=self.training)
        return self.head(x)


def create_model(name, pretrained=False, num_classes=1000, **kwargs):
    assert name == "tinynet"
    model = TinyNet(num_classes=num_classes, **kwargs)
    if pretrained:
        g = torch.Generator().manual_seed(1234)
        state = {k: torch.randn(v.shape, generator=g) * 0.05 if v.is_floating_point() else v
                 for k, v in model.state_dict().items()}
        for k in state:
            if k.endswith("running_var"):
                state[k] = torch.ones_like(state[k])
        model.load_state_dict(state)
    return model
