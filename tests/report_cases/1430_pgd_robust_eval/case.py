"""Adversarial training with an L-inf PGD adversary, then robust accuracy on held-out data."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LinfPGDAttack:
    def __init__(self, predict, loss_fn=None, eps=0.3, nb_iter=3, eps_iter=0.1, clip_min=0.0, clip_max=1.0):
        self.predict = predict
        self.loss_fn = loss_fn or nn.CrossEntropyLoss(reduction="sum")
        self.eps, self.nb_iter, self.eps_iter = eps, nb_iter, eps_iter
        self.clip_min, self.clip_max = clip_min, clip_max

    def perturb(self, x, y):
        delta = torch.zeros_like(x).uniform_(-self.eps, self.eps)
        delta.requires_grad_()
        for _ in range(self.nb_iter):
            outputs = self.predict(x + delta)
            loss = self.loss_fn(outputs, y)
            loss.backward()
            grad_sign = delta.grad.detach().sign()
            delta.data = delta.data + self.eps_iter * grad_sign
            delta.data = torch.clamp(delta.data, -self.eps, self.eps)
            delta.data = torch.clamp(x.data + delta.data, self.clip_min, self.clip_max) - x.data
            delta.grad.data.zero_()
        return torch.clamp(x + delta, self.clip_min, self.clip_max).detach()


class LeNet5Madry(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc1 = nn.Linear(16 * 3 * 3, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


def loader(n_batches, batch_size=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [(torch.rand(batch_size, 1, 12, 12, generator=g), torch.randint(0, 10, (batch_size,), generator=g))
            for _ in range(n_batches)]


def train_epoch(model, adversary, optimizer, trainloader):
    model.train()
    for inputs, targets in trainloader:
        adv = adversary.perturb(inputs, targets)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(adv), targets)
        loss.backward()
        optimizer.step()
    return loss.item()


def test(model, adversary, testloader):
    model.eval()
    correct = total = 0
    for inputs, targets in testloader:
        adv_untargeted = adversary.perturb(inputs, targets)
        with torch.no_grad():
            outputs = model(adv_untargeted)
        correct += (outputs.argmax(1) == targets).sum().item()
        total += targets.numel()
    return correct / total


def main():
    torch.manual_seed(0)
    model = LeNet5Madry()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    adversary = LinfPGDAttack(model)
    for epoch in range(2):
        loss = train_epoch(model, adversary, optimizer, loader(2, seed=epoch))
        acc = test(model, adversary, loader(1, seed=100))
        print(f"epoch {epoch}: train loss {loss:.4f} robust acc {acc:.3f}")


if __name__ == "__main__":
    main()
