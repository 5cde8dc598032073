"""Multi-task recommender (click + like + dwell auxiliary tasks) with a shared
bottom network. Per-task gradients on the shared parameters are combined with
MetaBalance-style weights derived from moving averages of each task's loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_USERS, N_ITEMS, DIM = 100, 200, 16
TASKS = ("click", "like", "dwell")


class SharedBottomModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_emb = nn.Embedding(N_USERS, DIM)
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        self.bottom = nn.Sequential(nn.Linear(2 * DIM, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
        self.towers = nn.ModuleDict({t: nn.Linear(32, 1) for t in TASKS})

    def forward(self, users, items):
        h = self.bottom(torch.cat([self.user_emb(users), self.item_emb(items)], dim=1))
        return {t: tower(h).squeeze(1) for t, tower in self.towers.items()}


def make_batch(n=128):
    users, items = torch.randint(0, N_USERS, (n,)), torch.randint(0, N_ITEMS, (n,))
    affinity = torch.sin(users.float() * 0.1) * torch.cos(items.float() * 0.05)
    click = (affinity + 0.3 * torch.randn(n) > 0).float()
    like = (affinity + 0.5 * torch.randn(n) > 0.4).float() * click
    dwell = F.relu(affinity + 0.2 * torch.randn(n)) * 3
    return users, items, {"click": click, "like": like, "dwell": dwell}


def task_losses(preds, labels):
    return {
        "click": F.binary_cross_entropy_with_logits(preds["click"], labels["click"]),
        "like": F.binary_cross_entropy_with_logits(preds["like"], labels["like"]),
        "dwell": F.mse_loss(preds["dwell"], labels["dwell"]),
    }


class MagnitudeBalancer:
    def __init__(self, shared_params, main="click", beta=0.9, relax=0.7):
        self.shared = list(shared_params)
        self.main, self.beta, self.relax = main, beta, relax
        self.loss_ema = {t: None for t in TASKS}

    def track(self, losses):
        for t, loss in losses.items():
            prev = self.loss_ema[t]
            value = loss.item()
            self.loss_ema[t] = value if prev is None else self.beta * prev + (1 - self.beta) * value

    def combine(self, losses):
        per_task = {}
        for k, (t, loss) in enumerate(losses.items()):
            for p in self.shared:
                p.grad = None
            loss.backward(retain_graph=k < len(losses) - 1)
            per_task[t] = [p.grad.clone() for p in self.shared]
        self.track(losses)
        main_scale = float(self.loss_ema[self.main])
        for i, p in enumerate(self.shared):
            g = per_task[self.main][i].clone()
            for t in TASKS:
                if t != self.main:
                    w = (main_scale / (float(self.loss_ema[t]) + 1e-8)) ** self.relax
                    g += w * per_task[t][i]
            p.grad = g


def main():
    model = SharedBottomModel()
    shared = list(model.user_emb.parameters()) + list(model.item_emb.parameters()) + list(model.bottom.parameters())
    balancer = MagnitudeBalancer(shared)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(25):
        users, items, labels = make_batch()
        losses = task_losses(model(users, items), labels)
        optimizer.zero_grad()
        balancer.combine(losses)
        optimizer.step()
        if step % 5 == 0:
            print(f"step {step}: " + ", ".join(f"{t} {l.item():.3f}" for t, l in losses.items()))


if __name__ == "__main__":
    main()
