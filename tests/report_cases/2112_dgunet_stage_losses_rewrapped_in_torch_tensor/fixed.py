"""Deblurring with a deep unfolding network (DGUNet-like): each stage refines
the estimate with a gradient step on the degradation model plus a small
proximal CNN; all stage outputs are supervised with Charbonnier and edge
losses.  Synthetic blurred/sharp pairs.
Fixed: the stage losses are summed with Python sum(), keeping the graph."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CharbonnierLoss(nn.Module):
    def __init__(self, eps=1e-3):
        super().__init__()
        self.eps = eps

    def forward(self, x, y):
        return torch.mean(torch.sqrt((x - y) ** 2 + self.eps ** 2))


class EdgeLoss(nn.Module):
    def __init__(self):
        super().__init__()
        k = torch.tensor([[0.05, 0.25, 0.4, 0.25, 0.05]])
        self.register_buffer("kernel", (k.t() @ k).expand(3, 1, 5, 5).contiguous())
        self.loss = CharbonnierLoss()

    def laplacian(self, img):
        blurred = F.conv2d(F.pad(img, (2, 2, 2, 2), mode="replicate"), self.kernel, groups=3)
        return img - blurred

    def forward(self, x, y):
        return self.loss(self.laplacian(x), self.laplacian(y))


class Stage(nn.Module):
    def __init__(self):
        super().__init__()
        self.degrade = nn.Conv2d(3, 3, 3, 1, 1, bias=False)
        self.step = nn.Parameter(torch.tensor(0.5))
        self.prox = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1), nn.PReLU(), nn.Conv2d(16, 3, 3, 1, 1))

    def forward(self, x, y):
        residual = self.degrade(x) - y
        x = x - self.step * F.conv_transpose2d(residual, self.degrade.weight, padding=1)
        return x + self.prox(x)


class DGUNet(nn.Module):
    def __init__(self, depth=3):
        super().__init__()
        self.stages = nn.ModuleList([Stage() for _ in range(depth)])

    def forward(self, y):
        x, outs = y, []
        for stage in self.stages:
            x = stage(x, y)
            outs.append(x)
        return outs[::-1]          # last stage first, as in the original code


def psnr(a, b):
    return (10 * torch.log10(1.0 / F.mse_loss(a.clamp(0, 1), b))).item()


def main():
    torch.manual_seed(0)
    model_restoration = DGUNet()
    optimizer = torch.optim.Adam(model_restoration.parameters(), lr=2e-4)
    criterion_char, criterion_edge = CharbonnierLoss(), EdgeLoss()
    for epoch in range(3):
        target = torch.rand(2, 3, 16, 16)
        input_ = F.avg_pool2d(target, 3, 1, 1)
        optimizer.zero_grad()
        restored = model_restoration(input_)

        loss_char = sum([criterion_char(restored[j], target) for j in range(len(restored))])
        loss_edge = sum([criterion_edge(restored[j], target) for j in range(len(restored))])
        loss = loss_char + (0.05 * loss_edge)

        loss.backward()
        optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f} psnr {psnr(restored[0], target):.2f}")


if __name__ == "__main__":
    main()
