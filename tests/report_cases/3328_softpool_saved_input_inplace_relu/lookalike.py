"""Small CNN classifier that downsamples with SoftPool (exponentially weighted pooling, implemented as
a custom autograd Function) plus a strided shortcut branch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

CFG = dict(in_ch=3, width=16, n_classes=4, img=16, batch=8, epochs=6, lr=0.05)


def _soft_pool(x, k):
    e = torch.exp(x - x.amax(dim=(2, 3), keepdim=True))
    return F.avg_pool2d(e * x, k) / F.avg_pool2d(e, k).clamp_min(1e-12)


class SoftPool2dFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, kernel_size):
        ctx.kernel_size = kernel_size
        ctx.save_for_backward(x)
        return _soft_pool(x, kernel_size)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        with torch.enable_grad():
            xd = x.detach().requires_grad_(True)
            out = _soft_pool(xd, ctx.kernel_size)
            grad_input, = torch.autograd.grad(out, xd, grad_output)
        return grad_input, None


class SoftPool2d(nn.Module):
    def __init__(self, kernel_size=2):
        super().__init__()
        self.kernel_size = kernel_size

    def forward(self, x):
        return SoftPool2dFunction.apply(x, self.kernel_size)


class DownBlock(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(c_out)
        self.act = nn.ReLU()
        self.pool = SoftPool2d(2)
        self.shortcut = nn.Sequential(nn.Conv2d(c_out, c_out, 1, stride=2), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))

    def forward(self, x):
        x = self.act(self.bn(self.conv(x)))
        return self.pool(x) + self.shortcut(x)


class Classifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        w = cfg["width"]
        self.features = nn.Sequential(DownBlock(cfg["in_ch"], w), DownBlock(w, 2 * w))
        self.fc = nn.Linear(2 * w, cfg["n_classes"])

    def forward(self, x):
        return self.fc(self.features(x).mean(dim=(2, 3)))


def train(cfg):
    model = Classifier(cfg)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9)
    for epoch in range(cfg["epochs"]):
        x = torch.randn(cfg["batch"], cfg["in_ch"], cfg["img"], cfg["img"])
        y = torch.randint(0, cfg["n_classes"], (cfg["batch"],))
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch}: loss={loss.item():.4f}")


if __name__ == "__main__":
    train(CFG)
