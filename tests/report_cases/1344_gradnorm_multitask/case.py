"""GradNorm: adaptive task weighting for a two-task regression network."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SharedBottom(nn.Module):
    def __init__(self, d_in=8, d_h=32, n_tasks=2):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, d_h), nn.ReLU())
        self.last_shared = nn.Linear(d_h, d_h)
        self.towers = nn.ModuleList([nn.Linear(d_h, 1) for _ in range(n_tasks)])

    def forward(self, x):
        h = F.relu(self.last_shared(self.trunk(x)))
        return [tower(h).squeeze(-1) for tower in self.towers]


class GradNormTrainer:
    def __init__(self, model, n_tasks=2, alpha=1.5, lr=1e-3, w_lr=1e-2):
        self.model = model
        self.alpha = alpha
        self.task_weights = nn.Parameter(torch.ones(n_tasks))
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.w_opt = torch.optim.Adam([self.task_weights], lr=w_lr)
        self.initial_losses = None
        self.last = {}

    def step(self, x, ys):
        preds = self.model(x)
        task_losses = torch.stack([F.mse_loss(p, y) for p, y in zip(preds, ys)])
        if self.initial_losses is None:
            self.initial_losses = task_losses.detach()

        weighted = self.task_weights * task_losses
        self.opt.zero_grad()
        self.w_opt.zero_grad()
        weighted.sum().backward(retain_graph=True)

        W = self.model.last_shared.weight
        norms = torch.stack([
            torch.autograd.grad(weighted[i], W, retain_graph=True, create_graph=True)[0].norm()
            for i in range(len(task_losses))
        ])
        ratios = task_losses.detach() / self.initial_losses
        inverse_rate = ratios / ratios.mean()
        target = (norms.mean() * inverse_rate ** self.alpha).detach()
        gradnorm_loss = (norms - target).abs().sum()
        self.task_weights.grad = torch.autograd.grad(gradnorm_loss, self.task_weights)[0]

        self.opt.step()
        self.w_opt.step()
        with torch.no_grad():
            self.task_weights.mul_(len(task_losses) / self.task_weights.sum())

        self.last = {"losses": task_losses.detach(), "weights": self.task_weights.detach().clone()}
        return self.last


def main():
    torch.manual_seed(0)
    trainer = GradNormTrainer(SharedBottom())
    for it in range(4):
        x = torch.randn(32, 8)
        ys = [x[:, 0] * 3.0, torch.sin(x[:, 1]) * 0.1]
        out = trainer.step(x, ys)
        print(f"iter {it}: losses={out['losses'].tolist()} weights={out['weights'].tolist()}")


if __name__ == "__main__":
    main()
