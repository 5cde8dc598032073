"""Novel-view synthesis toy: a ResNet-style encoder/decoder with pose-conditioned custom batch
norm (gain/bias from the relative camera pose) and standing statistics for inference."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

OPTS = dict(img=16, ch=16, pose_dim=6, batch=8, iters=20, lr=2e-4, momentum=0.1)


def manual_bn(x, eps=1e-5):
    mean = x.mean(dim=(0, 2, 3), keepdim=True)
    var = (x - mean).pow(2).mean(dim=(0, 2, 3), keepdim=True)
    return (x - mean) * torch.rsqrt(var + eps), mean.flatten(), var.flatten()


class BatchNormStandingStats(nn.Module):
    def __init__(self, channels, eps=1e-5, momentum=0.1):
        super().__init__()
        self.eps, self.momentum = eps, momentum
        self.register_buffer("stored_mean", torch.zeros(channels))
        self.register_buffer("stored_var", torch.ones(channels))

    def forward(self, x, gain, bias):
        if self.training:
            out, mean, var = manual_bn(x, self.eps)
            with torch.no_grad():
                self.stored_mean[:] = self.stored_mean * (1 - self.momentum) + mean * self.momentum
                self.stored_var[:] = self.stored_var * (1 - self.momentum) + var * self.momentum
        else:
            out = (x - self.stored_mean[None, :, None, None]) * torch.rsqrt(self.stored_var[None, :, None, None] + self.eps)
        return out * gain[:, :, None, None] + bias[:, :, None, None]


class ConditionalBN(nn.Module):
    def __init__(self, channels, cond_dim, momentum):
        super().__init__()
        self.bn = BatchNormStandingStats(channels, momentum=momentum)
        self.gain = nn.Linear(cond_dim, channels)
        self.bias = nn.Linear(cond_dim, channels)

    def forward(self, x, cond):
        return self.bn(x, 1 + self.gain(cond), self.bias(cond))


class ResBlock(nn.Module):
    def __init__(self, ch, cond_dim, momentum):
        super().__init__()
        self.bn1, self.bn2 = ConditionalBN(ch, cond_dim, momentum), ConditionalBN(ch, cond_dim, momentum)
        self.conv1, self.conv2 = nn.Conv2d(ch, ch, 3, padding=1), nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x, cond):
        h = self.conv1(F.relu(self.bn1(x, cond)))
        h = self.conv2(F.relu(self.bn2(h, cond)))
        return x + h


class ViewSynthesizer(nn.Module):
    def __init__(self, o):
        super().__init__()
        self.stem = nn.Conv2d(3, o["ch"], 3, padding=1)
        self.blocks = nn.ModuleList(ResBlock(o["ch"], o["pose_dim"], o["momentum"]) for _ in range(2))
        self.out = nn.Conv2d(o["ch"], 3, 3, padding=1)

    def forward(self, src, rel_pose):
        h = self.stem(src)
        for blk in self.blocks:
            h = blk(h, rel_pose)
        return torch.sigmoid(self.out(h))


def sample_pair(o):
    src = torch.rand(o["batch"], 3, o["img"], o["img"])
    pose = torch.randn(o["batch"], o["pose_dim"]) * 0.1
    shift = int(o["img"] // 8)
    tgt = torch.roll(src, shifts=shift, dims=3)
    return src, pose, tgt


class Trainer:
    def __init__(self, o):
        self.o = o
        self.model = ViewSynthesizer(o)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=o["lr"], betas=(0.0, 0.999))

    def run_iter(self, it):
        src, pose, tgt = sample_pair(self.o)
        pred = self.model(src, pose)
        loss = F.l1_loss(pred, tgt)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def evaluate(self):
        self.model.eval()
        with torch.no_grad():
            src, pose, tgt = sample_pair(self.o)
            err = F.l1_loss(self.model(src, pose), tgt).item()
        self.model.train()
        return err


if __name__ == "__main__":
    trainer = Trainer(OPTS)
    for it in range(OPTS["iters"]):
        loss = trainer.run_iter(it)
        if it % 5 == 4:
            print(f"iter {it}: l1={loss:.4f} eval_l1={trainer.evaluate():.4f}")
