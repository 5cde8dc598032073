"""Tabular churn classifier (MLP on standardised numeric features) with a
warm start: a 'pretrained' checkpoint from an earlier run is loaded before
fine-tuning on the current month's data."""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FEAT = 10


def build_model():
    return nn.Sequential(nn.Linear(N_FEAT, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 2))


def load_warm_start(checkpoint):
    """Rebuild the architecture and load the checkpointed weights."""
    model = build_model()
    model.load_state_dict(checkpoint)
    return model


def make_data(n=256):
    x = torch.randn(n, N_FEAT)
    logits = x[:, 0] * 1.5 - x[:, 3] + 0.5 * x[:, 7] * x[:, 2]
    return x, (logits + 0.3 * torch.randn(n) > 0).long()


def main():
    previous_run = build_model()
    checkpoint = copy.deepcopy(previous_run.state_dict())

    model = build_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-2)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    model = load_warm_start(checkpoint)

    x, y = make_data()
    for epoch in range(4):
        model.train()
        for i in range(0, len(x), 64):
            logits = model(x[i:i + 64])
            loss = F.cross_entropy(logits, y[i:i + 64])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scheduler.step()
        with torch.no_grad():
            acc = (model(x).argmax(1) == y).float().mean()
        print(f"epoch {epoch} loss {loss.item():.4f} acc {acc:.3f}")


if __name__ == "__main__":
    main()
