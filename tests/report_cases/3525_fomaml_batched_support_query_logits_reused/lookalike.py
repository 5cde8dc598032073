"""First-order MAML for 5-way few-shot classification of synthetic prototype
tasks with a functional MLP (parameters passed as an OrderedDict).  The outer
objective is the post-adaptation query loss; the pre-adaptation query accuracy
is logged to show what the inner loop adds."""
from collections import OrderedDict
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
WAYS, SHOTS, QUERIES, DIM, INNER_STEPS, STEP_SIZE = 5, 3, 5, 16, 2, 0.4


class MetaMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = nn.Linear(DIM, 64), nn.Linear(64, WAYS)

    def forward(self, x, params=None):
        p = params if params is not None else OrderedDict(self.named_parameters())
        h = F.relu(F.linear(x, p["l1.weight"], p["l1.bias"]))
        return F.linear(h, p["l2.weight"], p["l2.bias"])


def gradient_update_parameters(loss, params, step_size, first_order):
    grads = torch.autograd.grad(loss, params.values(), create_graph=not first_order)
    return OrderedDict((name, p - step_size * g) for (name, p), g in zip(params.items(), grads))


def sample_task():
    protos = torch.randn(WAYS, DIM) * 2
    ys = torch.arange(WAYS).repeat_interleave(SHOTS)
    yq = torch.arange(WAYS).repeat_interleave(QUERIES)
    return protos[ys] + torch.randn(len(ys), DIM), ys, protos[yq] + torch.randn(len(yq), DIM), yq


def task_loss(model, xs, ys, xq, yq):
    params = OrderedDict(model.named_parameters())
    logits_all = model(torch.cat([xs, xq]), params)     # support and query in one forward pass
    support_logits, query_logits_init = logits_all[:len(xs)], logits_all[len(xs):]
    inner_loss = F.cross_entropy(support_logits, ys)
    for step in range(INNER_STEPS):
        params = gradient_update_parameters(inner_loss, params, STEP_SIZE, first_order=True)
        inner_loss = F.cross_entropy(model(xs, params), ys)
    adapted = model(xq, params)
    outer = F.cross_entropy(adapted, yq)
    zero_shot = (query_logits_init.argmax(1) == yq).float().mean().item()   # values only
    return outer, (adapted.argmax(1) == yq).float().mean().item() - zero_shot


def main():
    model = MetaMLP()
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(5):
        meta_opt.zero_grad()
        outer, acc = 0.0, 0.0
        for _ in range(4):
            loss, a = task_loss(model, *sample_task())
            outer, acc = outer + loss / 4, acc + a / 4
        outer.backward()
        meta_opt.step()
        print(f"iter {it} outer loss {outer.item():.4f} adaptation gain {acc:+.2f}")


if __name__ == "__main__":
    main()
