"""GradNorm (Chen et al. 2018) for a shared-trunk two-task regressor: task weights are
learned so that the gradient norms at the last shared layer follow the relative training
rates L_i(t) / L_i(0). Network and task weights have separate optimizers."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class MTLNet(nn.Module):
    def __init__(self, n_tasks=2):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.heads = nn.ModuleList(nn.Linear(32, 1) for _ in range(n_tasks))

    def get_last_shared_layer(self):
        return self.shared[2]

    def forward(self, x, ys):
        h = self.shared(x)
        return torch.stack([((head(h).squeeze(1) - y) ** 2).mean() for head, y in zip(self.heads, ys)])


def train(alpha=1.5, iters=5):
    model = MTLNet()
    task_weights = nn.Parameter(torch.ones(2))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    weight_optimizer = torch.optim.Adam([task_weights], lr=2e-2)
    W = model.get_last_shared_layer()
    x = torch.randn(32, 10)
    ys = [x[:, :3].sum(1), 10 * torch.sin(x[:, 3])]
    for t in range(iters):
        task_loss = model(x, ys)
        weighted_task_loss = task_weights * task_loss
        if t == 0:
            initial_task_loss = task_loss.detach()
        loss = weighted_task_loss.sum()
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()  # update the network first, then balance the task weights

        # fresh forward with the updated network for the grad-norm terms
        task_loss = model(x, ys)
        weighted_task_loss = task_weights * task_loss
        norms = torch.stack([torch.norm(torch.autograd.grad(weighted_task_loss[i], W.weight,
                                                            retain_graph=True, create_graph=True)[0])
                             for i in range(len(task_loss))])
        loss_ratio = task_loss.detach() / initial_task_loss
        inverse_train_rate = loss_ratio / loss_ratio.mean()
        constant_term = (norms.mean() * inverse_train_rate ** alpha).detach()
        grad_norm_loss = (norms - constant_term).abs().sum()
        weight_optimizer.zero_grad()
        task_weights.grad = torch.autograd.grad(grad_norm_loss, task_weights)[0]
        weight_optimizer.step()
        with torch.no_grad():
            task_weights.mul_(len(task_loss) / task_weights.sum())
        print(f"iter {t} losses {[round(v, 3) for v in task_loss.tolist()]} "
              f"weights {[round(v, 3) for v in task_weights.tolist()]}")


if __name__ == "__main__":
    train()
