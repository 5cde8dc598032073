"""Tabular classification with a deep-equilibrium (implicit) hidden layer.
Besides the task loss, an L2 penalty on the readout weights is added; each
term is backpropagated separately."""
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
            act_penalty = 1e-3 * model.head.weight.pow(2).sum()   # only touches the readout
            opt.zero_grad()
            task_loss.backward(retain_graph=True)
            act_penalty.backward()
            opt.step()
        print(f"epoch {epoch} task {task_loss.item():.4f} penalty {act_penalty.item():.5f}")


if __name__ == "__main__":
    train()
