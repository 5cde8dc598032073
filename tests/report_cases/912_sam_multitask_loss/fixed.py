"""Multi-task chest-label classifier trained with Sharpness-Aware Minimization."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        super().__init__(params, dict(rho=rho, **kwargs))
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        norm = torch.norm(torch.stack([p.grad.norm() for g in self.param_groups for p in g["params"] if p.grad is not None]))
        for group in self.param_groups:
            scale = group["rho"] / (norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                e_w = p.grad * scale
                p.add_(e_w)
                self.state[p]["e_w"] = e_w
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def second_step(self, zero_grad=False):
        for group in self.param_groups:
            for p in group["params"]:
                if "e_w" in self.state[p]:
                    p.sub_(self.state[p]["e_w"])
        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()


def get_loss(output, target, t):
    loss_t = F.binary_cross_entropy_with_logits(output[:, t], target[:, t])
    acc_t = ((output[:, t] > 0).float() == target[:, t]).float().mean()
    return loss_t, acc_t


num_tasks = 3
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, num_tasks))
optimizer = SAM(model.parameters(), torch.optim.SGD, lr=0.05, momentum=0.9)
loss_sum = [0.0] * num_tasks

torch.manual_seed(0)
for step in range(3):
    image = torch.randn(8, 10)
    target = torch.randint(0, 2, (8, num_tasks)).float()

    output = model(image)
    loss = 0
    for t in range(num_tasks):
        loss_t, acc_t = get_loss(output, target, t)
        loss += loss_t
        loss_sum[t] += loss_t.item()
    optimizer.zero_grad()
    loss.backward()
    optimizer.first_step(zero_grad=True)

    output = model(image)
    loss = 0
    for t in range(num_tasks):
        loss_t, acc_t = get_loss(output, target, t)
        loss += loss_t
    loss.backward()
    optimizer.second_step(zero_grad=True)
    print(step, [round(v, 3) for v in loss_sum])
