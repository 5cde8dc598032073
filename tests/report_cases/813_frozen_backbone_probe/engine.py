"""Train / evaluate helpers for the linear probe."""
import torch
import torch.nn.functional as F


def train_one_epoch(model, loader, optimizer):
    model.head.train()                 # the frozen backbone stays in eval mode
    running = 0.0
    for images, labels in loader:
        logits = model(images)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item() * images.size(0)
    return running / sum(len(b[1]) for b in loader)


@torch.inference_mode()
def evaluate(model, loader):
    model.eval()
    correct, total = 0, 0
    for images, labels in loader:
        pred = model(images).argmax(dim=1)
        correct += (pred == labels).sum().item()
        total += labels.numel()
    return correct / total
