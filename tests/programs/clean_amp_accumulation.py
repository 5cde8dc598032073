"""Mixed precision with a GradScaler, gradient accumulation and a scheduler."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def train(model, loader, epochs=2, accum=2):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
    scaler = torch.cuda.amp.GradScaler(enabled=False)
    history = []
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for step, (x, y) in enumerate(loader):
            with torch.autocast("cpu", enabled=False):
                logits = model(x)
                loss = F.cross_entropy(logits, y) / accum
            scaler.scale(loss).backward()
            if (step + 1) % accum == 0:
                scaler.step(opt)
                scaler.update()
                opt.zero_grad(set_to_none=True)
                sched.step()
            running += loss.item()
        history.append(running / len(loader))
        model.eval()
        correct = 0
        preds = []
        with torch.no_grad():
            for x, y in loader:
                out = model(x)
                preds.append(out.argmax(1))
                correct += (out.argmax(1) == y).sum().item()
        print(epoch, history[-1], correct)
    return history


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
    data = [(torch.randn(4, 6), torch.randint(0, 3, (4,))) for _ in range(4)]
    train(net, data)
