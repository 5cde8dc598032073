"""Animatable implicit avatar: a neural skinning field maps canonical points to posed space; training fits the
skinning weights, validation recovers canonical correspondences with a fixed-point search using the analytic LBS Jacobian."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def rot_z(a):
    c, s = math.cos(a), math.sin(a)
    return torch.tensor([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


class SkinningField(nn.Module):
    def __init__(self, n_bones=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 32), nn.Softplus(), nn.Linear(32, n_bones))

    def weights(self, x):
        return F.softmax(self.net(x), dim=-1)

    def deform(self, x, bone_transforms):  # linear blend skinning
        R, t = bone_transforms
        per_bone = torch.einsum("bij,nj->nbi", R, x) + t
        return (self.weights(x).unsqueeze(-1) * per_bone).sum(1)


class AvatarTrainer:
    def __init__(self):
        self.model = SkinningField()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-2)
        self.bones = (torch.stack([rot_z(0.0), rot_z(0.3), rot_z(-0.3)]), torch.randn(3, 3) * 0.05)

    def training_step(self, x_cano):
        gt_weights = F.one_hot((x_cano[:, 0] > 0).long() + (x_cano[:, 1] > 0.5).long(), 3).float()
        loss = F.binary_cross_entropy(self.model.weights(x_cano), gt_weights)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def validation_step(self, x_cano):
        # fixed-point search with frozen weights: x <- blend(R, t at x)^-1 (x_d - t); no autograd needed
        R, t = self.bones
        x_posed = self.model.deform(x_cano, self.bones)
        x = x_posed.clone()
        for _ in range(10):
            w = self.model.weights(x)
            A = torch.einsum("nb,bij->nij", w, R)  # blended rotation, the analytic Jacobian of LBS
            x = torch.linalg.solve(A, (x_posed - w @ t).unsqueeze(-1)).squeeze(-1)
        return (x - x_cano).norm(dim=-1).mean().item()


if __name__ == "__main__":
    trainer = AvatarTrainer()
    for epoch in range(2):
        for _ in range(3):
            loss = trainer.training_step(torch.rand(64, 3) * 2 - 1)
        err = trainer.validation_step(torch.rand(16, 3) * 2 - 1)
        print(f"epoch {epoch} train loss {loss:.4f} correspondence error {err:.4f}")
