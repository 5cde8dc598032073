"""Keyword spotting on log-mel features: a small CNN is trained and checked on a held-out set every
few steps; validation losses are kept for early stopping."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def graph_nodes(tensors):
    seen, stack = set(), [t.grad_fn for t in tensors if t.grad_fn is not None]
    while stack:
        fn = stack.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class KWSNet(nn.Module):
    def __init__(self, n_mels=20, n_keywords=6):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                                  nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((4, 4)))
        self.fc = nn.Linear(16 * 16, n_keywords)

    def forward(self, mels):
        return self.fc(self.conv(mels.unsqueeze(1)).flatten(1))


def main(steps=12, val_every=3, patience=3):
    model = KWSNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    val_x, val_y = torch.randn(8, 20, 16), torch.randint(0, 6, (8,))
    val_history = []
    for step in range(1, steps + 1):
        x, y = torch.randn(4, 20, 16), torch.randint(0, 6, (4,))
        model.train()
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % val_every == 0:
            model.eval()
            with torch.no_grad():
                val_loss = F.cross_entropy(model(val_x), val_y)
            val_history.append(val_loss)
            best = min(val_history)
            print(f"step {step} train {loss.item():.3f} val {val_loss.item():.3f} "
                  f"graph nodes held by val_history: {graph_nodes(val_history)}")
            if len(val_history) > patience and all(v > best for v in val_history[-patience:]):
                print("early stopping")
                break


if __name__ == "__main__":
    main()
