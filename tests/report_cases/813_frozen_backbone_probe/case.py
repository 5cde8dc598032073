"""Linear probing of a frozen convolutional backbone."""
import torch

from engine import evaluate, train_one_epoch
from model import build_probe

torch.manual_seed(0)

model = build_probe(n_classes=5)
optimizer = torch.optim.SGD(model.head.parameters(), lr=0.1, momentum=0.9)
train_loader = [(torch.randn(8, 1, 12, 12), torch.randint(0, 5, (8,))) for _ in range(4)]
val_loader = [(torch.randn(8, 1, 12, 12), torch.randint(0, 5, (8,))) for _ in range(2)]

best_acc = 0.0
for epoch in range(3):
    train_loss = train_one_epoch(model, train_loader, optimizer)
    acc = evaluate(model, val_loader)
    best_acc = max(best_acc, acc)
    print(f"epoch {epoch} loss {train_loss:.4f} acc {acc:.3f}")
print("best", best_acc)
