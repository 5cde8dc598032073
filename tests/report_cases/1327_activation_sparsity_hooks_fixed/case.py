"""Classifier trained with an L1 activation-sparsity penalty collected through forward hooks."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class ActivationRecorder:
    """Collects the outputs of selected submodules during the forward pass."""

    def __init__(self, model, layer_types=(nn.ReLU,)):
        self.records = defaultdict(list)
        self.handles = []
        for name, module in model.named_modules():
            if isinstance(module, layer_types):
                self.handles.append(module.register_forward_hook(self._hook(name)))

    def _hook(self, name):
        def fn(module, inputs, output):
            self.records[name].append(output)
        return fn

    def l1(self):
        if not self.records:
            return torch.zeros(())
        return sum(torch.cat(acts).abs().mean() for acts in self.records.values())

    def clear(self):
        self.records.clear()

    def remove(self):
        for h in self.handles:
            h.remove()


class MLP(nn.Module):
    def __init__(self, d_in=20, d_hidden=32, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU(),
                                 nn.Linear(d_hidden, d_hidden), nn.ReLU(),
                                 nn.Linear(d_hidden, n_classes))

    def forward(self, x):
        return self.net(x)


def train(steps=4, l1_weight=1e-3):
    torch.manual_seed(2)
    model = MLP()
    recorder = ActivationRecorder(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    stats = {"ce": [], "l1": []}
    for step in range(steps):
        x = torch.randn(16, 20)
        y = torch.randint(0, 4, (16,))
        recorder.clear()
        logits = model(x)
        ce = F.cross_entropy(logits, y)
        sparsity = recorder.l1()
        loss = ce + l1_weight * sparsity
        opt.zero_grad()
        loss.backward()
        opt.step()
        stats["ce"].append(ce.item())
        stats["l1"].append(float(sparsity))
        print(f"step {step}: ce={ce.item():.4f} l1={float(sparsity):.4f}")
    recorder.remove()
    return stats


if __name__ == "__main__":
    train()
