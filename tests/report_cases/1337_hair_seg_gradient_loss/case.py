"""Hair segmentation fine-tuning with an image-gradient consistency loss."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class ImageGradientLoss(nn.Module):
    """Penalise mask edges that are not aligned with image edges."""

    def __init__(self):
        super().__init__()
        sobel = torch.tensor([[1., 0., -1.], [2., 0., -2.], [1., 0., -1.]])
        self.register_buffer("kx", sobel.view(1, 1, 3, 3))
        self.register_buffer("ky", sobel.t().contiguous().view(1, 1, 3, 3))

    def _grad(self, x):
        return F.conv2d(x, self.kx, padding=1), F.conv2d(x, self.ky, padding=1)

    def forward(self, pred, image):
        size = pred.size()
        pred = pred.argmax(1).view(size[0], 1, size[2], size[3]).float()
        gray = image.mean(1, keepdim=True)
        gx, gy = self._grad(gray)
        mx, my = self._grad(pred)
        g_mag = torch.sqrt(gx ** 2 + gy ** 2 + 1e-6)
        nx, ny = gx / g_mag, gy / g_mag
        return (mx * mx + my * my - (mx * nx + my * ny) ** 2).mean()


class MobileHairNetLite(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU(),
                                     nn.Conv2d(ch, ch, 3, padding=1, groups=ch), nn.ReLU())
        self.decoder = nn.Conv2d(ch, 2, 1)

    def forward(self, x):
        return self.decoder(self.encoder(x))


class SegTrainer:
    def __init__(self, objective="gradient", lr=1e-3, grad_weight=0.5):
        self.objective = objective
        self.net = MobileHairNetLite()
        self.ce = nn.CrossEntropyLoss()
        self.grad_loss = ImageGradientLoss()
        self.grad_weight = grad_weight
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=lr)

    def loss(self, pred, mask, image):
        if self.objective == "ce":
            return self.ce(pred, mask)
        if self.objective == "gradient":
            # refinement stage: only sharpen boundaries
            return self.grad_weight * self.grad_loss(pred, image)
        return self.ce(pred, mask) + self.grad_weight * self.grad_loss(pred, image)

    def step(self, image, mask):
        pred = self.net(image)
        loss = self.loss(pred, mask, image)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objective", default="gradient", choices=["ce", "gradient", "both"])
    ap.add_argument("--steps", type=int, default=3)
    opts = ap.parse_args()
    torch.manual_seed(0)
    trainer = SegTrainer(objective=opts.objective)
    for i in range(opts.steps):
        image = torch.rand(2, 3, 12, 12)
        mask = (image[:, 0] > 0.5).long()
        print(f"step {i}: loss={trainer.step(image, mask):.4f}")


if __name__ == "__main__":
    main()
