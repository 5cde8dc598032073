"""Minimal Lightning-like fit loop for the BYOL module in byol_module.py:
two random augmentations of a synthetic feature batch per step, one backward,
one optimizer step, then the target network's moving-average update."""
import torch

from byol_module import BYOL, BYOLMAWeightUpdate


def augment(x):
    return x * (1 + 0.1 * torch.randn_like(x)) + 0.05 * torch.randn_like(x)


def fit(model, callback, max_steps=6, batch_size=16):
    optimizer = model.configure_optimizers()
    model.train()
    for global_step in range(max_steps):
        base = torch.randn(batch_size, 24)
        batch = (augment(base), augment(base))
        loss, logs = model.training_step(batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        callback.on_train_batch_end(model, global_step, max_steps)
        print(global_step, {k: round(v, 4) for k, v in logs.items()}, f"tau={callback.current_tau:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    fit(BYOL(), BYOLMAWeightUpdate())
