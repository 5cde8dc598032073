"""Two-head multitask net; per-task gradient norms on the shared trunk are logged.

Each task loss is backpropagated separately through the shared graph (the first
walk keeps the graph on purpose) so the trunk gradient of each task can be read
before the gradients are summed and one optimizer step is taken.
"""
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTaskNet(nn.Module):
    def __init__(self, in_dim=6, hidden=16, n_cls=3):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.cls_head = nn.Linear(hidden, n_cls)
        self.reg_head = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.cls_head(h), self.reg_head(h).squeeze(-1)


def trunk_grad_norm(model):
    return torch.sqrt(sum((p.grad ** 2).sum() for p in model.trunk.parameters() if p.grad is not None)).item()


def main(steps=4):
    torch.manual_seed(0)
    model = MultiTaskNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    reg_loss_fn = partial(F.smooth_l1_loss, beta=0.5)
    for step in range(steps):
        x = torch.randn(16, 6)
        y_cls, y_reg = (x[:, 0] > 0).long() + (x[:, 1] > 0).long(), x[:, 2] * 2
        logits, pred = model(x)
        loss_cls, loss_reg = F.cross_entropy(logits, y_cls), reg_loss_fn(pred, y_reg)
        opt.zero_grad()
        loss_cls.backward(retain_graph=True)      # trunk graph is needed again for loss_reg
        norm_cls = trunk_grad_norm(model)
        loss_reg.backward()                        # last walk frees the graph
        norm_total = trunk_grad_norm(model)
        opt.step()
        print(step, f"cls={loss_cls.item():.3f} reg={loss_reg.item():.3f} |g_cls|={norm_cls:.3f} |g|={norm_total:.3f}")


if __name__ == "__main__":
    main()
