import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_VIEWS, N_CLASSES = 4, 5


def graph_size(t):
    """Number of autograd nodes still reachable from t (what t keeps alive)."""
    if not torch.is_tensor(t) or t.grad_fn is None:
        return 0
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class ViewSelector(nn.Module):
    """Predicts per-shape azimuth/elevation offsets (the 'T' in MVTN)."""
    def __init__(self, n_pts=64):
        super().__init__()
        self.point_enc = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 32))
        self.reg = nn.Linear(32, 2 * N_VIEWS)

    def forward(self, points):
        feat = self.point_enc(points).max(dim=1).values
        return torch.tanh(self.reg(feat)).view(-1, N_VIEWS, 2) * 45.0


def soft_render(points, angles, res=8):
    """Differentiable stand-in for the mesh renderer: rotate and splat depth."""
    az = torch.deg2rad(angles[..., 0]).unsqueeze(-1)
    el = torch.deg2rad(angles[..., 1]).unsqueeze(-1)
    x, y, z = points[:, None, :, 0], points[:, None, :, 1], points[:, None, :, 2]
    u = x * torch.cos(az) - z * torch.sin(az)
    v = y * torch.cos(el) - (x * torch.sin(az) + z * torch.cos(az)) * torch.sin(el)
    grid = torch.linspace(-1, 1, res)
    img = torch.exp(-((u.unsqueeze(-1) - grid) ** 2).unsqueeze(-1) - ((v.unsqueeze(-1) - grid) ** 2).unsqueeze(-2))
    return img.sum(2).unsqueeze(2)  # (B, V, 1, res, res)


class MVNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten())
        self.fc = nn.Linear(32, N_CLASSES)

    def forward(self, views):
        B, V = views.shape[:2]
        f = self.cnn(views.flatten(0, 1)).view(B, V, -1).max(dim=1).values
        return self.fc(f)


mvtn, mvnetwork = ViewSelector(), MVNetwork()
optimizer = torch.optim.AdamW(list(mvnetwork.parameters()) + list(mvtn.parameters()), lr=1e-3)
train_loader = [(torch.rand(4, 64, 3) * 2 - 1, torch.randint(0, N_CLASSES, (4,))) for _ in range(6)]

for epoch in range(2):
    total_loss, total_correct = 0, 0
    for i, (points, targets) in enumerate(train_loader):
        angles = mvtn(points)
        outputs = mvnetwork(soft_render(points, angles))
        loss = F.cross_entropy(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total_loss += loss.detach()  # tensor accumulator, but cut from the graph
        total_correct += (outputs.argmax(1) == targets).sum().item()
        print(f"epoch {epoch} it {i} autograd nodes held by total_loss: {graph_size(total_loss)}")
    print("epoch", epoch, "avg loss", float(total_loss) / len(train_loader), "acc", total_correct / 24)
