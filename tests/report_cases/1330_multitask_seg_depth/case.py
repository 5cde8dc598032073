"""Joint semantic segmentation + depth regression with a shared encoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TASK_WEIGHTS = {"seg": 1.0, "depth": 0.5}


class SharedEncoder(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv2d(3, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.ReLU(),
            nn.Conv2d(ch, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.ReLU(),
        )

    def forward(self, x):
        return self.layers(x)


class MultiTaskNet(nn.Module):
    def __init__(self, n_classes=4, ch=8):
        super().__init__()
        self.encoder = SharedEncoder(ch)
        self.heads = nn.ModuleDict({
            "seg": nn.Conv2d(ch, n_classes, 1),
            "depth": nn.Sequential(nn.Conv2d(ch, 1, 1), nn.Softplus()),
        })

    def forward(self, x):
        feats = self.encoder(x)
        return {name: head(feats) for name, head in self.heads.items()}


def compute_losses(outputs, batch):
    return {
        "seg": F.cross_entropy(outputs["seg"], batch["seg"]),
        "depth": F.l1_loss(outputs["depth"], batch["depth"]),
    }


def fake_batch(bs=4, h=8, w=8, n_classes=4):
    return {
        "image": torch.randn(bs, 3, h, w),
        "seg": torch.randint(0, n_classes, (bs, h, w)),
        "depth": torch.rand(bs, 1, h, w) * 10,
    }


def main(epochs=2, iters=2):
    torch.manual_seed(0)
    net = MultiTaskNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(epochs):
        meters = {k: 0.0 for k in TASK_WEIGHTS}
        for _ in range(iters):
            batch = fake_batch()
            outputs = net(batch["image"])
            losses = compute_losses(outputs, batch)
            optimizer.zero_grad()
            (TASK_WEIGHTS["seg"] * losses["seg"]).backward()
            (TASK_WEIGHTS["depth"] * losses["depth"]).backward()
            optimizer.step()
            for k in meters:
                meters[k] += losses[k].item() / iters
        print(f"epoch {epoch}: " + ", ".join(f"{k}={v:.3f}" for k, v in meters.items()))


if __name__ == "__main__":
    main()
