"""MNIST-style robust training example (convex_adversarial examples layout): train a small
conv net, then evaluate robust and PGD error on the test loader after every epoch."""
import torch
import torch.nn as nn
from torch.autograd import Variable

torch.manual_seed(0)


def mnist_model():
    return nn.Sequential(
        nn.Conv2d(1, 8, 4, stride=2, padding=1), nn.ReLU(),
        nn.Conv2d(8, 16, 4, stride=2, padding=1), nn.ReLU(),
        nn.Flatten(), nn.Linear(16 * 3 * 3, 50), nn.ReLU(), nn.Linear(50, 10))


def fake_loader(n_batches, batch_size=16):
    return [(torch.rand(batch_size, 1, 12, 12), torch.randint(0, 10, (batch_size,))) for _ in range(n_batches)]


def _pgd(model, X, y, epsilon, niters=5, alpha=0.05):
    out = model(X)
    ce = nn.CrossEntropyLoss()(out, y)
    err = (out.data.max(1)[1] != y.data).float().sum() / X.size(0)

    X_pgd = Variable(X.data, requires_grad=True)
    with torch.enable_grad():  # the attack needs input gradients even inside evaluation
        for i in range(niters):
            loss = nn.CrossEntropyLoss()(model(X_pgd), y)
            if X_pgd.grad is not None:
                X_pgd.grad.zero_()
            loss.backward()
            eta = alpha * X_pgd.grad.data.sign()
            X_pgd = Variable(X_pgd.data + eta, requires_grad=True)
            # adjust to be within [-epsilon, epsilon]
            eta = torch.clamp(X_pgd.data - X.data, -epsilon, epsilon)
            X_pgd = Variable(torch.clamp(X.data + eta, 0, 1), requires_grad=True)
    err_pgd = (model(X_pgd).data.max(1)[1] != y.data).float().sum() / X.size(0)
    return err, err_pgd


def train_baseline(loader, model, opt, epoch):
    model.train()
    for i, (X, y) in enumerate(loader):
        out = model(Variable(X))
        ce = nn.CrossEntropyLoss()(out, Variable(y))
        opt.zero_grad()
        ce.backward()
        opt.step()
        # model.zero_grad() is handled by the next opt.zero_grad()
    print(f"epoch {epoch}: last train loss {ce.item():.4f}")


def evaluate_robust(loader, model, epsilon, epoch):
    torch.set_grad_enabled(False)
    model.eval()
    errors, pgd_errors = [], []
    for i, (X, y) in enumerate(loader):
        out = model(Variable(X))
        errors.append((out.max(1)[1] != y).float().mean().item())
        _, pgd_err = _pgd(model, Variable(X), Variable(y), epsilon)
        pgd_errors.append(pgd_err.item())
    torch.set_grad_enabled(True)
    print(f"epoch {epoch}: test error {sum(errors) / len(errors):.3f} pgd error {sum(pgd_errors) / len(pgd_errors):.3f}")
    return sum(errors) / len(errors)


if __name__ == "__main__":
    train_loader, test_loader = fake_loader(6), fake_loader(2)
    model = mnist_model()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    epsilon = 0.1
    for t in range(3):
        train_baseline(train_loader, model, opt, t)
        err = evaluate_robust(test_loader, model, epsilon, t)
