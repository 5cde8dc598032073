"""Rectified flow with a consistency term (consistency flow matching) on 2-D
two-moons data: the velocity network regresses the straight-line velocity and
is also pulled towards an EMA copy of itself evaluated further along the path."""
import copy
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def two_moons(n):
    t = torch.rand(n) * math.pi
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))
    return torch.stack([x, y], dim=1) + 0.05 * torch.randn(n, 2)


class VelocityNet(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, 2))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))


class EMA:
    def __init__(self, model, beta=0.99):
        self.model = copy.deepcopy(model)
        self.online = model
        self.beta = beta

    @torch.no_grad()
    def update(self):
        for p_ema, p in zip(self.model.parameters(), self.online.parameters()):
            p_ema.lerp_(p.detach(), 1.0 - self.beta)


@torch.no_grad()
def sample(model, n=256, steps=20):
    x = torch.randn(n, 2)
    for i in range(steps):
        t = torch.full((n, 1), i / steps)
        x = x + model(x, t) / steps
    return x


def train(steps=30, batch=256, delta=0.05, consistency_weight=0.5):
    model = VelocityNet()
    ema = EMA(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        data, noise = two_moons(batch), torch.randn(batch, 2)
        t = torch.rand(batch, 1) * (1 - delta)
        x_t = (1 - t) * noise + t * data
        pred = model(x_t, t)
        flow_loss = F.mse_loss(pred, data - noise)

        t_next = t + delta
        x_next = x_t + delta * pred.detach()
        ema_velocity = ema.model(x_next, t_next)
        ema.update()
        consistency = F.mse_loss(x_t + (1 - t) * pred, x_next + (1 - t_next) * ema_velocity)

        loss = flow_loss + consistency_weight * consistency
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"step {step}: flow {flow_loss.item():.4f} consistency {consistency.item():.4f}")
    samples = sample(ema.model)
    print("sample mean:", samples.mean(0).round(decimals=2).tolist())


if __name__ == "__main__":
    train()
