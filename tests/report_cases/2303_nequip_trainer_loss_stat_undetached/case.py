"""Train a tiny pairwise interatomic potential on energies and forces.

Structure follows a NequIP-like Trainer: `batch_step` computes the total
loss plus a dict of per-term contributions, which a LossStat object
accumulates for epoch-level logging.
"""
import argparse
from collections import defaultdict

import torch
import torch.nn as nn


def lj_reference(pos):
    """Reference energy (soft Lennard-Jones) and forces for one frame."""
    pos = pos.clone().requires_grad_(True)
    d = torch.cdist(pos, pos) + torch.eye(pos.shape[0])
    inv6 = (1.0 / d) ** 6
    e = 0.5 * (4 * (inv6 ** 2 - inv6) * (1 - torch.eye(pos.shape[0]))).sum()
    f = -torch.autograd.grad(e, pos)[0]
    return e.detach(), f.detach()


class PairPotential(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(1, hidden), nn.SiLU(), nn.Linear(hidden, hidden),
                                 nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, pos):
        n = pos.shape[0]
        i, j = torch.triu_indices(n, n, offset=1)
        r = (pos[i] - pos[j]).norm(dim=-1, keepdim=True)
        return self.mlp(r).sum()


class Loss:
    def __init__(self, coeffs):
        self.coeffs = coeffs

    def __call__(self, pred, ref):
        contrib = {
            "total_energy": (pred["total_energy"] - ref["total_energy"]) ** 2,
            "forces": ((pred["forces"] - ref["forces"]) ** 2).mean(),
        }
        loss = sum(self.coeffs[k] * v for k, v in contrib.items())
        return loss, contrib


class LossStat:
    def __init__(self):
        self.reset()

    def reset(self):
        self.running = defaultdict(float)
        self.count = 0

    def __call__(self, loss, loss_contrib):
        self.running["loss"] += loss
        for k, v in loss_contrib.items():
            self.running[k] += v
        self.count += 1

    def current_result(self):
        return {k: float(v) / self.count for k, v in self.running.items()}


class Trainer:
    def __init__(self, model, config):
        self.model = model
        self.loss = Loss(config["loss_coeffs"])
        self.loss_stat = LossStat()
        self.optim = torch.optim.Adam(model.parameters(), lr=config["learning_rate"])

    def predict(self, pos):
        pos = pos.clone().requires_grad_(True)
        energy = self.model(pos)
        forces = -torch.autograd.grad(energy, pos, create_graph=True)[0]
        return {"total_energy": energy, "forces": forces}

    def batch_step(self, frame):
        self.optim.zero_grad()
        pred = self.predict(frame["pos"])
        loss, loss_contrib = self.loss(pred, frame)
        loss.backward()
        self.optim.step()
        self.loss_stat(loss, loss_contrib)

    def epoch_step(self, frames):
        self.loss_stat.reset()
        for frame in frames:
            self.batch_step(frame)
        return self.loss_stat.current_result()


def make_frames(n_frames, n_atoms):
    frames = []
    for _ in range(n_frames):
        pos = torch.rand(n_atoms, 3) * 3.0
        e, f = lj_reference(pos)
        frames.append({"pos": pos, "total_energy": e, "forces": f})
    return frames


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--n_frames", type=int, default=16)
    parser.add_argument("--n_atoms", type=int, default=8)
    args = parser.parse_args()
    config = {"learning_rate": 1e-3, "loss_coeffs": {"total_energy": 1.0, "forces": 10.0}}

    torch.manual_seed(0)
    frames = make_frames(args.n_frames, args.n_atoms)
    trainer = Trainer(PairPotential(), config)
    for epoch in range(args.epochs):
        metrics = trainer.epoch_step(frames)
        print(epoch, {k: round(v, 4) for k, v in metrics.items()})


if __name__ == "__main__":
    main()
