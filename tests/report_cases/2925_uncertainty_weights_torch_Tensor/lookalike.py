"""Multi-task depth + segmentation network with homoscedastic-uncertainty loss weighting
(Kendall et al.): one learnable log-variance per task, trained jointly with the network."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MultiTaskNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.seg_head = nn.Conv2d(16, n_classes, 1)
        self.depth_head = nn.Conv2d(16, 1, 1)

    def forward(self, x):
        f = self.encoder(x)
        return self.seg_head(f), self.depth_head(f)


class UncertaintyWeighting(nn.Module):
    def __init__(self, n_tasks=2):
        super().__init__()
        self.log_vars = nn.ParameterList(nn.Parameter(torch.zeros(1)) for _ in range(n_tasks))

    def forward(self, task_losses):
        log_vars = torch.cat([lv for lv in self.log_vars])
        precision = torch.exp(-log_vars)
        self.last_sigmas = torch.Tensor([lv.exp().sqrt().item() for lv in self.log_vars])  # for logging
        losses = torch.stack(task_losses)
        return (precision * losses + log_vars).sum()


model, weighting = MultiTaskNet(), UncertaintyWeighting(2)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
weight_optimizer = torch.optim.Adam(weighting.parameters(), lr=1e-2)

for step in range(5):
    img = torch.randn(2, 3, 8, 8)
    seg_gt, depth_gt = torch.randint(0, 3, (2, 8, 8)), torch.rand(2, 1, 8, 8)
    seg, depth = model(img)
    task_losses = [F.cross_entropy(seg, seg_gt), F.l1_loss(depth, depth_gt)]
    loss = weighting(task_losses)
    optimizer.zero_grad()
    weight_optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    weight_optimizer.step()
    print(f"step {step} loss {loss.item():.4f} log_vars {[round(v.item(), 4) for v in weighting.log_vars]}")
