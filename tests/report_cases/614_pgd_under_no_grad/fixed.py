# Train a small classifier, then report clean and PGD-robust accuracy.
import torch
import torch.nn as nn
import torch.nn.functional as F


def pgd_attack(model, x, y, eps=0.3, alpha=0.1, steps=3):
    x_adv = x.clone().detach()
    for _ in range(steps):
        x_adv.requires_grad_(True)
        loss = F.cross_entropy(model(x_adv), y)
        grad, = torch.autograd.grad(loss, x_adv)
        x_adv = x_adv.detach() + alpha * grad.sign()
        x_adv = torch.min(torch.max(x_adv, x - eps), x + eps)
    return x_adv.detach()


def evaluate(model, batches):
    model.eval()
    clean = robust = total = 0
    for x, y in batches:
        # the attack needs input gradients, so it runs outside no_grad
        x_adv = pgd_attack(model, x, y)
        with torch.no_grad():
            clean += (model(x).argmax(1) == y).sum().item()
            robust += (model(x_adv).argmax(1) == y).sum().item()
        total += y.numel()
    return clean / total, robust / total


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    batches = [(torch.randn(16, 10), torch.randint(0, 3, (16,))) for _ in range(3)]
    model.train()
    for x, y in batches:
        optimizer.zero_grad()
        F.cross_entropy(model(x), y).backward()
        optimizer.step()
    print("clean / robust accuracy:", evaluate(model, batches))


if __name__ == "__main__":
    main()
