"""Cross-entropy training on synthetic 12x12 images with a spurious corner
artefact; after each step a SmoothGrad saliency map is computed to monitor how
much of the evidence sits in the annotated 'irrelevant' corner."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_batch(n=32):
    x = 0.3 * torch.randn(n, 1, 12, 12)
    y = torch.randint(0, 2, (n,))
    x[y == 1, :, 4:8, 4:8] += 1.0                    # the real signal: a bright centre patch
    x[y == 1, :, 0:2, 0:2] += 2.0                    # spurious shortcut in the corner
    irrelevant = torch.zeros(n, 1, 12, 12)
    irrelevant[:, :, 0:3, 0:3] = 1.0                 # annotators marked the corner as irrelevant
    return x, y, irrelevant


def smoothgrad(model, x, y, n_samples=4, sigma=0.2):
    """SmoothGrad: average input gradients over noisy copies (one forward each)."""
    total = torch.zeros_like(x)
    for _ in range(n_samples):
        x_noisy = (x + sigma * torch.randn_like(x)).requires_grad_(True)
        score = model(x_noisy).gather(1, y[:, None]).sum()
        score.backward()                              # fresh graph for every sample
        total += x_noisy.grad
    model.zero_grad()                                 # discard parameter grads from the probes
    return total / n_samples


def main():
    model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 144, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(6):
        x, y, irrelevant = make_batch()
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sal = smoothgrad(model, x, y)
        corner_share = (irrelevant * sal.abs()).sum() / sal.abs().sum()
        print(f"step {step} loss {loss.item():.4f} corner saliency share {corner_share.item():.3f}")


if __name__ == "__main__":
    main()
