"""HyperIQA-style blind image quality assessment: a backbone extracts a content
feature per image, a hyper network turns semantic features into the weights of
a small per-image target regressor that maps the content feature to a score."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
FEAT, HID = 24, 8


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.content = nn.Linear(32, FEAT)
        self.semantic = nn.Linear(32, 32)

    def forward(self, img):
        h = self.conv(img)
        return self.content(h), F.relu(self.semantic(h))


class HyperNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.w1, self.b1 = nn.Linear(32, HID * FEAT), nn.Linear(32, HID)
        self.w2, self.b2 = nn.Linear(32, HID), nn.Linear(32, 1)

    def forward(self, sem):
        return (self.w1(sem).view(-1, HID, FEAT), self.b1(sem), self.w2(sem).view(-1, 1, HID), self.b2(sem))


class TargetNet(nn.Module):
    """Weight-less target regressor: every weight is an argument generated per image."""
    def forward(self, x, w1, b1, w2, b2):
        return F.linear(torch.sigmoid(F.linear(x, w1, b1)), w2, b2)


def synthetic_iqa(n=16):
    img = torch.rand(n, 3, 32, 32)
    noise = torch.rand(n)
    img = img + noise[:, None, None, None] * torch.randn_like(img)
    return img, 1.0 - noise                          # quality drops with the noise level


def main():
    backbone, hyper, target = Backbone(), HyperNet(), TargetNet()
    for param in target.parameters():      # target weights must not be trained directly
        param.requires_grad = False         # (the module owns no parameters, so this is a no-op)
    opt_backbone = torch.optim.Adam(backbone.parameters(), lr=2e-4)
    opt_hyper = torch.optim.Adam(hyper.parameters(), lr=2e-3)   # 10x lr ratio for the hyper network
    for epoch in range(4):
        img, mos = synthetic_iqa()
        content, sem = backbone(img)
        w1, b1, w2, b2 = hyper(sem)
        preds = []
        for i in range(img.size(0)):
            preds.append(target(content[i:i + 1], w1[i], b1[i], w2[i], b2[i]))
        loss = F.l1_loss(torch.cat(preds).squeeze(1), mos)
        opt_backbone.zero_grad(); opt_hyper.zero_grad()
        loss.backward()
        opt_backbone.step(); opt_hyper.step()
        print(f"epoch {epoch} l1 {loss.item():.4f}")


if __name__ == "__main__":
    main()
