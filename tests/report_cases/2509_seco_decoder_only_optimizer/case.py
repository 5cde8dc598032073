import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ResEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.layer2 = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU())

    def forward(self, x):
        f1 = self.layer1(x)
        f2 = self.layer2(f1)
        return [f1, f2]


class SiamSegment(nn.Module):
    """Change detection: a shared encoder on both dates, a decoder on the feature differences."""

    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder
        self.up = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.head = nn.Sequential(nn.Conv2d(32, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 1))

    def forward(self, img1, img2):
        feats1 = self.encoder(img1)
        feats2 = self.encoder(img2)
        diffs = [torch.abs(a - b) for a, b in zip(feats1, feats2)]
        x = self.up(diffs[1])
        x = torch.cat([x, diffs[0]], dim=1)
        return self.head(x)


class ChangeDetectionTask:
    def __init__(self, model, lr=1e-3):
        self.model = model
        params = set(self.model.parameters()).difference(self.model.encoder.parameters())
        self.optimizer = torch.optim.Adam(params, lr=lr, weight_decay=1e-4)

    def training_step(self, batch):
        img1, img2, mask = batch
        self.model.encoder.eval()
        pred = self.model(img1, img2)
        loss = F.binary_cross_entropy_with_logits(pred, mask)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


encoder = ResEncoder()
task = ChangeDetectionTask(SiamSegment(encoder))
for epoch in range(3):
    losses = []
    for _ in range(3):
        img1, img2 = torch.randn(4, 3, 16, 16), torch.randn(4, 3, 16, 16)
        mask = (torch.rand(4, 1, 16, 16) > 0.8).float()
        losses.append(task.training_step((img1, img2, mask)))
    print('epoch %d  train loss %.4f' % (epoch, sum(losses) / len(losses)))
