"""'Right for the right reasons' training on synthetic 12x12 images with a
spurious corner artefact: the input-gradient saliency of the correct class is
penalised inside an annotated 'irrelevant' mask, on top of cross-entropy."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
LAMBDA = 10.0


def make_batch(n=32):
    x = 0.3 * torch.randn(n, 1, 12, 12)
    y = torch.randint(0, 2, (n,))
    x[y == 1, :, 4:8, 4:8] += 1.0                    # the real signal: a bright centre patch
    x[y == 1, :, 0:2, 0:2] += 2.0                    # spurious shortcut in the corner
    irrelevant = torch.zeros(n, 1, 12, 12)
    irrelevant[:, :, 0:3, 0:3] = 1.0                 # annotators marked the corner as irrelevant
    return x, y, irrelevant


def saliency(model, x, y):
    """Vanilla-gradient saliency of the correct-class score w.r.t. the input."""
    x = x.clone().requires_grad_(True)
    logits = model(x)
    score = logits.gather(1, y[:, None]).sum()
    score.backward()
    return logits, x.grad


def main():
    model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 144, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(6):
        x, y, irrelevant = make_batch()
        opt.zero_grad()
        logits, sal = saliency(model, x, y)
        rrr = (irrelevant * sal).pow(2).sum() / x.size(0)
        loss = F.cross_entropy(logits, y) + LAMBDA * rrr
        opt.zero_grad()                               # drop the parameter grads left by the saliency pass
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f} rrr {rrr.item():.5f}")


if __name__ == "__main__":
    main()
