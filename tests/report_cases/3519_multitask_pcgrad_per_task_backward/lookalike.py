"""Shared-bottom multi-task model for click (CTR) and conversion (CVR)
prediction trained round-robin: each task has its own batch, its own forward
pass, its own backward and step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FEAT = 12


class SharedBottom(nn.Module):
    def __init__(self):
        super().__init__()
        self.bottom = nn.Sequential(nn.Linear(N_FEAT, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
        self.towers = nn.ModuleDict({t: nn.Sequential(nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
                                     for t in ("ctr", "cvr")})

    def forward(self, x):
        h = self.bottom(x)
        return {t: tower(h).squeeze(1) for t, tower in self.towers.items()}


def make_batch(n=128):
    x = torch.randn(n, N_FEAT)
    click = (x[:, 0] + 0.5 * x[:, 1] > 0).float()
    conv = click * (x[:, 2] > 0.3).float()
    return x, {"ctr": click, "cvr": conv}


def main():
    model = SharedBottom()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(5):
        losses = {}
        for task in ("ctr", "cvr"):
            x, labels = make_batch()                    # task-specific batch
            logits = model(x)
            losses[task] = F.binary_cross_entropy_with_logits(logits[task], labels[task])
            opt.zero_grad()
            losses[task].backward()                     # one backward per forward
            opt.step()
        print(f"step {step} " + " ".join(f"{t} {l.item():.3f}" for t, l in losses.items()))


if __name__ == "__main__":
    main()
