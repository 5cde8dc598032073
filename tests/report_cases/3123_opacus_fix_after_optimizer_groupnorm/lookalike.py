"""Differentially private training of a small CNN on CIFAR-like images: the model is made DP-compatible
with GroupNorm from the start (ModuleValidator finds nothing to fix) and trained with clipped, noised gradients."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from validator import ModuleValidator, dp_sgd_step

torch.manual_seed(0)


def make_model():
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.GroupNorm(4, 8), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.GroupNorm(4, 16), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(16, 10))


def main(epochs=2):
    model = make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    errors = ModuleValidator.validate(model)
    if errors:
        print("incompatible layers:", errors)
        model = ModuleValidator.fix(model)
    norm_w0 = model[1].weight.detach().clone()
    images, labels = torch.randn(32, 3, 8, 8), torch.randint(0, 10, (32,))
    for epoch in range(epochs):
        for i in range(0, 32, 8):
            loss = F.cross_entropy(model(images[i:i + 8]), labels[i:i + 8])
            optimizer.zero_grad()
            loss.backward()
            dp_sgd_step(optimizer)
        print(f"epoch {epoch} loss {loss.item():.3f}")
    print("GroupNorm weight change:", (model[1].weight - norm_w0).abs().max().item())


if __name__ == "__main__":
    main()
