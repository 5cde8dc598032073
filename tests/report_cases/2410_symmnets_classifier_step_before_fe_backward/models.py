import torch.nn as nn


class FeatureExtractor(nn.Module):
    """Stand-in for the ResNet-50 trunk (pooled 2048-d features in the paper)."""

    def __init__(self, in_dim, feat_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 256), nn.ReLU(), nn.Linear(256, feat_dim), nn.ReLU())

    def forward(self, x):
        return self.net(x)


class SymmetricClassifier(nn.Module):
    """Outputs 2*C logits: [source-task classifier Cs | target-task classifier Ct]."""

    def __init__(self, feat_dim, num_classes):
        super().__init__()
        self.fc = nn.Linear(feat_dim, 2 * num_classes)

    def forward(self, f):
        return self.fc(f)
