import torch
import torch.nn as nn
import torch.nn.functional as F


class HyperNet(nn.Module):
    """Content-understanding hyper network: a (pretrained, frozen) backbone plus heads that
    emit the weights of a small quality-prediction target network."""

    def __init__(self, in_dim=32, feat_dim=24, hidden=8):
        super().__init__()
        self.res = nn.Sequential(nn.Linear(in_dim, feat_dim), nn.ReLU())  # stand-in backbone
        self.hidden = hidden
        self.feat_dim = feat_dim
        self.fc1w = nn.Linear(feat_dim, feat_dim * hidden)
        self.fc1b = nn.Linear(feat_dim, hidden)
        self.fc2w = nn.Linear(feat_dim, hidden)
        self.fc2b = nn.Linear(feat_dim, 1)

    def forward(self, img):
        feat = self.res(img)
        return {
            "target_in_vec": feat,
            "w1": self.fc1w(feat).view(-1, self.hidden, self.feat_dim),
            "b1": self.fc1b(feat),
            "w2": self.fc2w(feat).view(-1, 1, self.hidden),
            "b2": self.fc2b(feat),
        }


class TargetNet(nn.Module):
    """Quality predictor whose weights are the hyper network's outputs (one set per image)."""

    def __init__(self, paras):
        super().__init__()
        self.paras = paras

    def forward(self, x):
        p = self.paras
        h = F.relu(torch.bmm(p["w1"], x.unsqueeze(2)).squeeze(2) + p["b1"])
        return torch.bmm(p["w2"], h.unsqueeze(2)).squeeze(2) + p["b2"]
