"""Deterministic Uncertainty Quantification (DUQ) on a 2-D two-moons-like
problem: an RBF head compares features with per-class centroids, the loss is
BCE on the kernel values plus a two-sided gradient penalty w.r.t. the input.
Losses go through a small tracking wrapper that also keeps running averages."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CLASSES, EMB, LAMBDA_GP = 2, 16, 0.5


class DUQ(nn.Module):
    def __init__(self, length_scale=0.3, gamma=0.99):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.W = nn.Parameter(torch.randn(EMB, N_CLASSES, 64) * 0.05)
        self.register_buffer("N", torch.ones(N_CLASSES) * 10)
        self.register_buffer("m", torch.randn(EMB, N_CLASSES) * 10)
        self.sigma, self.gamma = length_scale, gamma

    def embed(self, x):
        return torch.einsum("ij,mnj->imn", self.features(x), self.W)

    def forward(self, x):
        z = self.embed(x)
        centroids = self.m / self.N.unsqueeze(0)
        return (-(z - centroids.unsqueeze(0)).pow(2).mean(1) / (2 * self.sigma ** 2)).exp()

    @torch.no_grad()
    def update_centroids(self, x, y_onehot):
        z = self.embed(x)
        self.N = self.gamma * self.N + (1 - self.gamma) * y_onehot.sum(0)
        self.m = self.gamma * self.m + (1 - self.gamma) * torch.einsum("ijk,ik->jk", z, y_onehot)


def gradient_penalty(x, y_pred):
    grads = torch.autograd.grad(y_pred.sum(1), x, torch.ones(x.size(0)), create_graph=True)[0]
    return ((grads.flatten(1).norm(2, dim=1) - 1) ** 2).mean()


def duq_loss(y_pred, y_onehot, x):
    return F.binary_cross_entropy(y_pred, y_onehot) + LAMBDA_GP * gradient_penalty(x, y_pred)


class AccuracyMeter:
    """Running accuracy (a metric object: it only ever sees detached outputs)."""
    def __init__(self):
        self.correct, self.count = 0, 0

    def update(self, y_pred, y):
        y_pred = y_pred.detach()
        self.correct += int((y_pred.argmax(1) == y.argmax(1)).sum())
        self.count += y.size(0)


def moons(n=128):
    t = torch.rand(n) * 3.14
    label = torch.randint(0, 2, (n,))
    x = torch.stack([torch.cos(t) + label, torch.sin(t) * (1 - 2 * label) + 0.5 * label], 1)
    return x + 0.1 * torch.randn_like(x), label


def main():
    model = DUQ()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    meter = AccuracyMeter()
    data, labels = moons()
    for epoch in range(2):
        for i in range(0, 128, 32):
            x = data[i:i + 32].clone().requires_grad_(True)
            y = F.one_hot(labels[i:i + 32], N_CLASSES).float()
            y_pred = model(x)
            loss = duq_loss(y_pred, y, x)
            meter.update(y_pred, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            model.update_centroids(x.detach(), y)
        print(f"epoch {epoch} loss {loss.item():.4f} acc {meter.correct / meter.count:.3f}")


if __name__ == "__main__":
    main()
