import torch
import torch.nn as nn
from torch import Tensor

torch.manual_seed(0)


def reduce(x: Tensor, y: Tensor, z: Tensor, op) -> Tensor:
    tensor = torch.zeros((5, x.shape[0]), dtype=torch.float32, requires_grad=False)
    tensor[0] = x
    tensor[1] = y
    tensor[3] = z
    tensor[2] = op(tensor[0], tensor[1])
    tensor[4] = op(tensor[2], tensor[3])
    return tensor[4]


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
