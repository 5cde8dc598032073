"""PINN for u'' + u = 0 on [0, pi], u(0)=0, u'(0)=1, LightningModule look-alike with LBFGS.

Manual optimization: training_step builds a closure that LBFGS may call many times.
"""
import math

import torch
import torch.nn as nn


class PINNModule(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, hidden),
                                 nn.Tanh(), nn.Linear(hidden, 1))
        self._opt = None

    def forward(self, x):
        return self.net(x)

    def compute_loss(self, batch):
        x = batch.clone().requires_grad_(True)
        u = self(x)
        du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
        d2u = torch.autograd.grad(du.sum(), x, create_graph=True)[0]
        residual = ((d2u + u) ** 2).mean()
        x0 = torch.zeros(1, 1, requires_grad=True)
        u0 = self(x0)
        du0 = torch.autograd.grad(u0.sum(), x0, create_graph=True)[0]
        return residual + (u0 ** 2).mean() + ((du0 - 1) ** 2).mean()

    def configure_optimizers(self):
        return torch.optim.LBFGS(self.parameters(), lr=0.5, max_iter=5, history_size=10)

    def optimizers(self):
        return self._opt

    def manual_backward(self, loss):
        loss.backward()

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()

        def closure():
            loss = self.compute_loss(batch)
            opt.zero_grad()
            self.manual_backward(loss)
            return loss

        return opt.step(closure=closure)


def fit(module, max_epochs=3):
    module._opt = module.configure_optimizers()
    torch.manual_seed(0)
    for epoch in range(max_epochs):
        batch = torch.rand(32, 1) * math.pi
        loss = module.training_step(batch, 0)
        print(f"epoch {epoch}: loss={loss.item():.5f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    fit(PINNModule())
