"""Binary lesion segmentation with a small U-Net-like network; the epoch Dice score is computed from
all training-batch outputs collected during the epoch."""
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


class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.mid = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
        self.up = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(16, 8, 3, padding=1), nn.ReLU())
        self.out = nn.Conv2d(9, 1, 1)

    def forward(self, x):
        return self.out(torch.cat([self.up(self.mid(self.down(x))), x], 1))


def dice(logits, masks, eps=1.0):
    probs = torch.sigmoid(logits)
    inter = (probs * masks).sum()
    return (2 * inter + eps) / (probs.sum() + masks.sum() + eps)


def train(epochs=2, batches=5):
    model = TinyUNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        all_outputs, all_masks = [], []
        for b in range(batches):
            images = torch.rand(4, 1, 16, 16)
            masks = (images > 0.7).float()
            outputs = model(images)
            loss = F.binary_cross_entropy_with_logits(outputs, masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            all_outputs.append(outputs)
            all_masks.append(masks)
            print(f"epoch {epoch} batch {b} loss {loss.item():.3f} graph nodes held: {graph_nodes(all_outputs)}")
        epoch_dice = dice(torch.cat(all_outputs), torch.cat(all_masks))
        print(f"epoch {epoch} train dice {epoch_dice.item():.3f}")


if __name__ == "__main__":
    train()
