"""Fast adversarial training (FGSM examples mixed with clean examples)."""
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.nn.functional as F

cfg = SimpleNamespace(epsilon=0.1, alpha=0.5, lr=0.05, epochs=2, batches=2, batch_size=16, n_in=16, n_out=3)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(cfg.n_in, 32)
        self.bn = nn.BatchNorm1d(32)
        self.fc2 = nn.Linear(32, cfg.n_out)

    def forward(self, x):
        return self.fc2(F.relu(self.bn(self.fc1(x))))


def fgsm(model, x, y, epsilon):
    x_adv = x.detach().clone().requires_grad_(True)
    loss = F.cross_entropy(model(x_adv), y)
    grad, = torch.autograd.grad(loss, x_adv)
    x_adv = x_adv + epsilon * grad.sign()
    return x_adv.clamp(-3, 3).detach()


def train(model, opt):
    history = {"clean": [], "adv": []}
    for epoch in range(cfg.epochs):
        for _ in range(cfg.batches):
            x = torch.randn(cfg.batch_size, cfg.n_in)
            y = (x[:, :cfg.n_out]).argmax(1)
            model.eval()
            x_adv = fgsm(model, x, y, cfg.epsilon)
            model.train()
            clean_loss = F.cross_entropy(model(x), y)
            adv_loss = F.cross_entropy(model(x_adv), y)
            loss = cfg.alpha * clean_loss + (1 - cfg.alpha) * adv_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            history["clean"].append(clean_loss.item())
            history["adv"].append(adv_loss.item())
        print(f"epoch {epoch}: clean {history['clean'][-1]:.3f} adv {history['adv'][-1]:.3f}")
    return history


if __name__ == "__main__":
    torch.manual_seed(0)
    net = Net()
    train(net, torch.optim.SGD(net.parameters(), lr=cfg.lr, momentum=0.9))
