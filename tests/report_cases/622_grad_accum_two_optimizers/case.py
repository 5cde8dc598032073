# Reverse-distillation style training with gradient accumulation over two
# optimizers: backward every micro-batch, step + zero_grad every N, manual
# warmup written into param_groups, and a step counter kept in a dict.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 8))  # frozen teacher
encoder.requires_grad_(False)
encoder.eval()
proj = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8))
decoder = nn.Sequential(nn.Linear(8, 24), nn.ReLU(), nn.Linear(24, 8))
optimizer_proj = torch.optim.Adam(proj.parameters(), lr=1e-3)
optimizer_distill = torch.optim.Adam(decoder.parameters(), lr=5e-3)

accumulation_steps = 2
base_lrs = {"proj": 1e-3, "distill": 5e-3}
state = {"step": 0, "running_loss": 0.0}


def warmup(optimizer, base_lr, step, warm=4):
    lr = base_lr * min(1.0, (step + 1) / warm)
    for group in optimizer.param_groups:
        group["lr"] = lr


optimizer_proj.zero_grad()
optimizer_distill.zero_grad()
for i in range(8):
    x = torch.randn(6, 12)
    with torch.no_grad():
        feats = encoder(x)
    recon = decoder(proj(feats))
    loss = (1 - F.cosine_similarity(recon, feats, dim=1)).mean() / accumulation_steps
    loss.backward()
    state["running_loss"] += loss.item()
    if (i + 1) % accumulation_steps == 0:
        warmup(optimizer_proj, base_lrs["proj"], state["step"])
        warmup(optimizer_distill, base_lrs["distill"], state["step"])
        optimizer_proj.step()
        optimizer_distill.step()
        optimizer_proj.zero_grad()
        optimizer_distill.zero_grad()
        state["step"] += 1
print(state)
