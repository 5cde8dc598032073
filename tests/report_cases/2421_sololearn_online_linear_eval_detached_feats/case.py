"""SimCLR pre-training with an online linear classifier (solo-learn style):
the classifier reads detached backbone features so that only the SSL loss
shapes the backbone, while the probe accuracy is tracked during training."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class BaseMethod(nn.Module):
    def __init__(self, in_dim, feat_dim, num_classes):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 128), nn.ReLU(), nn.Linear(128, feat_dim), nn.ReLU())
        self.classifier = nn.Linear(feat_dim, num_classes)

    def base_forward(self, X):
        feats = self.backbone(X)
        logits = self.classifier(feats.detach())
        return {"logits": logits, "feats": feats}

    def base_training_step(self, X, targets):
        out = self.base_forward(X)
        loss = F.cross_entropy(out["logits"], targets)
        acc = (out["logits"].argmax(1) == targets).float().mean()
        return {**out, "loss": loss, "acc": acc}


class SimCLR(BaseMethod):
    def __init__(self, in_dim, feat_dim, proj_dim, num_classes, temperature=0.2):
        super().__init__(in_dim, feat_dim, num_classes)
        self.projector = nn.Sequential(nn.Linear(feat_dim, feat_dim), nn.ReLU(), nn.Linear(feat_dim, proj_dim))
        self.temperature = temperature

    def nt_xent(self, z1, z2):
        z = F.normalize(torch.cat([z1, z2]), dim=1)
        sim = z @ z.t() / self.temperature
        n = z1.size(0)
        sim.fill_diagonal_(float("-inf"))
        targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
        return F.cross_entropy(sim, targets)

    def training_step(self, views, targets):
        outs = [self.base_training_step(v, targets) for v in views]
        class_loss = sum(o["loss"] for o in outs) / len(outs)
        z1, z2 = (self.projector(o["feats"]) for o in outs)
        nce_loss = self.nt_xent(z1, z2)
        return nce_loss + class_loss, nce_loss.item(), outs[0]["acc"].item()


def augment(x):
    return x * (1 + 0.1 * torch.randn_like(x)) + 0.1 * torch.randn_like(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--in_dim", type=int, default=32)
    parser.add_argument("--num_classes", type=int, default=5)
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args()
    torch.manual_seed(0)
    centers = torch.randn(args.num_classes, args.in_dim) * 2
    model = SimCLR(args.in_dim, 64, 32, args.num_classes)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-5)
    for step in range(args.steps):
        y = torch.randint(0, args.num_classes, (64,))
        x = centers[y] + torch.randn(64, args.in_dim)
        loss, nce, acc = model.training_step([augment(x), augment(x)], y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print(f"step {step} nce {nce:.3f} online acc {acc:.3f}")


if __name__ == "__main__":
    main()
