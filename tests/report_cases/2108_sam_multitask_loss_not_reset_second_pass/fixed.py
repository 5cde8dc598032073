"""Multi-task chest-X-ray style classifier trained with SAM (sharpness-aware
minimization, two forward/backward passes per batch).  Synthetic images.
Fixed: the loss is reset before the second (perturbed) pass."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        defaults = dict(rho=rho, **kwargs)
        super().__init__(params, defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        grad_norm = self._grad_norm()
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
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
                if p.grad is None:
                    continue
                p.sub_(self.state[p]["e_w"])
        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()

    def _grad_norm(self):
        norms = [p.grad.norm(p=2) for g in self.param_groups for p in g["params"] if p.grad is not None]
        return torch.norm(torch.stack(norms), p=2)


class Backbone(nn.Module):
    def __init__(self, num_tasks):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, 2, 1), nn.BatchNorm2d(8), nn.ReLU(),
                                      nn.Conv2d(8, 16, 3, 2, 1), nn.ReLU())
        self.heads = nn.ModuleList([nn.Conv2d(16, 1, 1) for _ in range(num_tasks)])

    def forward(self, x):
        feat = self.features(x)
        logit_map = [head(feat) for head in self.heads]
        output = [m.mean(dim=(2, 3)).squeeze(1) for m in logit_map]
        return output, logit_map


def get_loss(output, target, t):
    loss_t = F.binary_cross_entropy_with_logits(output[t], target[:, t])
    acc_t = ((output[t] > 0).float() == target[:, t]).float().mean()
    return loss_t, acc_t


def main(num_tasks=3, steps=3):
    torch.manual_seed(0)
    model = Backbone(num_tasks)
    optimizer = SAM(model.parameters(), torch.optim.SGD, lr=0.1, momentum=0.9)
    loss_sum = [0.0] * num_tasks
    acc_sum = [0.0] * num_tasks
    for step in range(steps):
        image = torch.randn(4, 1, 16, 16)
        target = (torch.rand(4, num_tasks) > 0.5).float()

        output, logit_map = model(image)
        loss = 0
        for t in range(num_tasks):
            loss_t, acc_t = get_loss(output, target, t)
            loss += loss_t
            loss_sum[t] += loss_t.item()
            acc_sum[t] += acc_t.item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.first_step(zero_grad=True)

        output, logit_map = model(image)
        loss = 0
        for t in range(num_tasks):
            loss_t, acc_t = get_loss(output, target, t)
            loss += loss_t
        loss.backward()
        optimizer.second_step(zero_grad=True)
        print(f"step {step}: loss {loss.item():.4f}")
    print("mean task losses:", [round(s / steps, 4) for s in loss_sum])


if __name__ == "__main__":
    main()
