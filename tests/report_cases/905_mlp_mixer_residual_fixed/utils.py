"""Data and bookkeeping helpers."""
import torch


def random_batches(n_batches, batch=4, seq=5, dim=8, n_classes=3):
    for _ in range(n_batches):
        yield torch.randn(batch, seq, dim), torch.randint(0, n_classes, (batch,))


def log(epoch, step, value):
    print(f"epoch {epoch} step {step} loss {value:.4f}")


def count_parameters(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def accuracy(logits, labels):
    with torch.no_grad():
        return (logits.argmax(-1) == labels).float().mean().item()
