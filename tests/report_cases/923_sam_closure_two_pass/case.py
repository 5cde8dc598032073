"""Sharpness-aware minimization driven by a closure that re-runs the forward pass."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        super().__init__(params, dict(rho=rho, **kwargs))
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)

    @torch.no_grad()
    def step(self, closure):
        grads = [p.grad for g in self.param_groups for p in g["params"] if p.grad is not None]
        norm = torch.norm(torch.stack([gr.norm() for gr in grads]))
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                e_w = p.grad * (group["rho"] / (norm + 1e-12))
                p.add_(e_w)
                self.state[p]["e_w"] = e_w
        self.zero_grad()
        with torch.enable_grad():
            closure()
        for group in self.param_groups:
            for p in group["params"]:
                if "e_w" in self.state[p]:
                    p.sub_(self.state[p]["e_w"])
        self.base_optimizer.step()


def smooth_ce(logits, target, eps=0.1):
    n = logits.size(-1)
    one_hot = F.one_hot(target, n).float() * (1 - eps) + eps / n
    return -(one_hot * F.log_softmax(logits, -1)).sum(-1).mean()


model = nn.Sequential(nn.Linear(12, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 5))
optimizer = SAM(model.parameters(), torch.optim.SGD, rho=0.05, lr=0.1, momentum=0.9)

torch.manual_seed(0)
for step in range(4):
    inputs, targets = torch.randn(8, 12), torch.randint(0, 5, (8,))

    def closure():
        loss = smooth_ce(model(inputs), targets)
        loss.backward()
        return loss

    loss = smooth_ce(model(inputs), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step(closure)
    print(step, round(loss.item(), 4))
