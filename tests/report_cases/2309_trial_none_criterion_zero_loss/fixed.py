"""VAE trained with a small torchbearer-style Trial.

The Trial accepts `criterion=None`; in that case the loss starts as a zero
tensor and callbacks decorated with @add_to_loss contribute the terms.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

LOSS, Y_PRED, Y_TRUE, X = "loss", "y_pred", "y_true", "x"


def add_to_loss(func):
    func.hook = "on_criterion"
    return func


class Trial:
    def __init__(self, model, optimizer, criterion=None, metrics=(), callbacks=()):
        self.model, self.optimizer = model, optimizer
        self.criterion = criterion
        self.metrics = list(metrics)
        self.callbacks = list(callbacks)

    def _call_hooks(self, name, state):
        for cb in self.callbacks:
            if getattr(cb, "hook", None) == name:
                extra = cb(state)
                if extra is not None:
                    state[LOSS] = state[LOSS] + extra

    def _step(self, state):
        self.optimizer.zero_grad()
        state[Y_PRED] = self.model(state[X])
        if self.criterion is not None:
            state[LOSS] = self.criterion(state[Y_PRED], state[Y_TRUE])
        else:
            state[LOSS] = torch.zeros(1)
        self._call_hooks("on_criterion", state)
        state[LOSS].backward()
        self.optimizer.step()

    def run(self, loader, epochs=1):
        history = []
        for epoch in range(epochs):
            total = 0.0
            for x, y in loader:
                state = {X: x, Y_TRUE: y}
                self._step(state)
                total += state[LOSS].item()
            history.append(total / len(loader))
            print(f"epoch {epoch}: loss {history[-1]:.4f}")
        return history


class VAE(nn.Module):
    def __init__(self, in_dim=64, latent=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU())
        self.mu, self.logvar = nn.Linear(32, latent), nn.Linear(32, latent)
        self.dec = nn.Sequential(nn.Linear(latent, 32), nn.ReLU(), nn.Linear(32, in_dim))
        self.state = {}

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        self.state["mu"], self.state["logvar"] = mu, logvar
        return self.dec(z)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--beta", type=float, default=0.5)
    args = parser.parse_args()
    torch.manual_seed(0)
    data = torch.randn(128, 64)
    loader = [(data[i:i + 32], data[i:i + 32]) for i in range(0, 128, 32)]
    model = VAE()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    @add_to_loss
    def vae_loss(state):
        recon = F.mse_loss(state[Y_PRED], state[Y_TRUE], reduction="sum") / state[X].shape[0]
        mu, logvar = model.state["mu"], model.state["logvar"]
        kld = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1))
        return recon + args.beta * kld

    def checkpoint(state):
        return None

    trial = Trial(model, optimizer, criterion=None, metrics=["loss"], callbacks=[vae_loss, checkpoint])
    trial.run(loader, epochs=args.epochs)


if __name__ == "__main__":
    main()
