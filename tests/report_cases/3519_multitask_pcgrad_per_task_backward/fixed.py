"""Shared-bottom multi-task model for click (CTR) and conversion (CVR)
prediction with PCGrad-style gradient surgery on the shared bottom: each task
gradient is computed separately, conflicting components are projected out,
and the combined gradient is written back before the optimizer step."""
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


def task_gradients(model, losses):
    """Flattened gradient of each task loss w.r.t. the shared bottom."""
    grads = []
    shared = list(model.bottom.parameters())
    for name, loss in losses.items():
        # every task gradient comes from the same graph, which is still needed
        # afterwards for the tower gradients -> keep it alive explicitly
        g = torch.autograd.grad(loss, shared, retain_graph=True)
        grads.append(torch.cat([gi.flatten() for gi in g]))
    return grads


def pcgrad(grads):
    out = [g.clone() for g in grads]
    for i, gi in enumerate(out):
        for j, gj in enumerate(grads):
            dot = torch.dot(gi, gj)
            if i != j and dot < 0:
                gi -= dot / gj.norm().pow(2) * gj
    return sum(out)


def make_batch(n=128):
    x = torch.randn(n, N_FEAT)
    click = (x[:, 0] + 0.5 * x[:, 1] > 0).float()
    conv = click * (x[:, 2] > 0.3).float()
    return x, {"ctr": click, "cvr": conv}


def main():
    model = SharedBottom()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(5):
        x, labels = make_batch()
        logits = model(x)
        losses = {t: F.binary_cross_entropy_with_logits(logits[t], labels[t]) for t in logits}
        shared = pcgrad(task_gradients(model, losses))
        model.zero_grad()
        sum(losses.values()).backward()                 # tower gradients
        offset = 0
        for p in model.bottom.parameters():             # overwrite the shared part with the surgery result
            p.grad = shared[offset:offset + p.numel()].view_as(p).clone()
            offset += p.numel()
        opt.step()
        print(f"step {step} " + " ".join(f"{t} {l.item():.3f}" for t, l in losses.items()))


if __name__ == "__main__":
    main()
