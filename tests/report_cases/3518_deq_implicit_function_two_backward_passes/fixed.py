"""Tabular classification with a deep-equilibrium (implicit) hidden layer.
Besides the task loss, a small activation penalty keeps the equilibrium state
away from tanh saturation; both terms are summed into one objective."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from deq_layer import DEQBlock

torch.manual_seed(0)


class DEQClassifier(nn.Module):
    def __init__(self, d_in=8, d_hidden=16, n_cls=3):
        super().__init__()
        self.deq = DEQBlock(d_in, d_hidden)
        self.head = nn.Linear(d_hidden, n_cls)

    def forward(self, x):
        z = self.deq(x)
        return self.head(z), z


def make_data(n=96):
    x = torch.randn(n, 8)
    y = (x[:, 0] > 0).long() + (x[:, 1] + x[:, 2] > 1).long()
    return x, y


def train():
    model = DEQClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    x, y = make_data()
    for epoch in range(3):
        for i in range(0, len(x), 32):
            logits, z = model(x[i:i + 32])
            task_loss = F.cross_entropy(logits, y[i:i + 32])
            act_penalty = 1e-2 * z.pow(2).mean()
            opt.zero_grad()
            # one backward: the implicit layer's custom backward (which frees its
            # inner graph) must run only once per forward
            (task_loss + act_penalty).backward()
            opt.step()
        print(f"epoch {epoch} task {task_loss.item():.4f} penalty {act_penalty.item():.5f}")


if __name__ == "__main__":
    train()
