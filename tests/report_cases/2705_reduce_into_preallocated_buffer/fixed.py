import torch
import torch.nn as nn
from torch import Tensor

torch.manual_seed(0)


def reduce(x: Tensor, y: Tensor, z: Tensor, op) -> Tensor:
    slots = [x, y, None, z, None]
    slots[2] = op(slots[0], slots[1])
    slots[4] = op(slots[2], slots[3])
    return slots[4]


class GatedTriple(nn.Module):
    """Three branch encoders whose outputs are combined by a pairwise reduction tree."""

    def __init__(self, dim=8, op=torch.mul):
        super().__init__()
        self.branches = nn.ModuleList(nn.Linear(dim, 1) for _ in range(3))
        self.op = op

    def forward(self, feats):
        outs = [torch.sigmoid(b(f)).squeeze(-1) for b, f in zip(self.branches, feats)]
        return reduce(*outs, op=self.op)


model = GatedTriple(op=torch.mul)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(4):
    feats = [torch.randn(6, 8) for _ in range(3)]
    target = torch.rand(6)
    optimizer.zero_grad()
    out = model(feats)
    loss = ((out - target) ** 2).mean()
    loss.backward()
    optimizer.step()
