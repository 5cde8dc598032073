"""Generic fit() taking a model factory; multi-task model with ModuleList blocks, ModuleDict heads and a subclass."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MultiTaskNet(nn.Module):
    def __init__(self, dim=16, depth=3):
        super().__init__()
        self.stem = nn.Linear(8, dim)
        self.blocks = nn.ModuleList([nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU())
                                     for _ in range(depth)])
        self.heads = nn.ModuleDict({"cls": nn.Linear(dim, 3), "reg": nn.Linear(dim, 1)})

    def forward(self, x):
        h = self.stem(x)
        for blk in self.blocks:
            h = h + blk(h)
        return {name: head(h) for name, head in self.heads.items()}


class CalibratedNet(MultiTaskNet):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.temperature = nn.Parameter(torch.ones(1))

    def forward(self, x):
        out = super().forward(x)
        out["cls"] = out["cls"] / self.temperature
        return out


def compute_loss(outputs, batch, task):
    if task == "cls":
        return F.cross_entropy(outputs["cls"], batch["y_cls"])
    else:
        return F.mse_loss(outputs["reg"].squeeze(-1), batch["y_reg"])


def fit(model_fn, batches, epochs=2, lr=1e-2):
    model = model_fn()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    history = []
    for epoch in range(epochs):
        for step, batch in enumerate(batches):
            task = "cls" if step % 2 == 0 else "reg"
            outputs = model(batch["x"])
            loss = compute_loss(outputs, batch, task)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            history.append((task, loss.item()))
    return model, history


batches = [{"x": torch.randn(10, 8), "y_cls": torch.randint(0, 3, (10,)), "y_reg": torch.randn(10)}
           for _ in range(4)]
model, history = fit(lambda: CalibratedNet(dim=16, depth=2), batches)
model.eval()
with torch.no_grad():
    probs = model(batches[0]["x"])["cls"].softmax(-1)
print(history[-2:], probs.shape)
