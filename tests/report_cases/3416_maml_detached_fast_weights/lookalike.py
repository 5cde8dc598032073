"""First-order MAML on sinusoid regression: inner-loop gradients are treated
as constants (detached), and the query loss of the adapted weights updates
the shared initialisation."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SineTasks:
    def sample(self, n_tasks, k_shot=10, k_query=10):
        amp = torch.empty(n_tasks, 1, 1).uniform_(0.1, 5.0)
        phase = torch.empty(n_tasks, 1, 1).uniform_(0, math.pi)
        x = torch.empty(n_tasks, k_shot + k_query, 1).uniform_(-5, 5)
        y = amp * torch.sin(x + phase)
        return x[:, :k_shot], y[:, :k_shot], x[:, k_shot:], y[:, k_shot:]


class Learner(nn.Module):
    def __init__(self, hidden=40):
        super().__init__()
        self.l1 = nn.Linear(1, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.l3 = nn.Linear(hidden, 1)

    def functional_forward(self, x, weights):
        w1, b1, w2, b2, w3, b3 = weights
        h = F.relu(F.linear(x, w1, b1))
        h = F.relu(F.linear(h, w2, b2))
        return F.linear(h, w3, b3)


class MAML:
    def __init__(self, inner_lr=0.01, inner_steps=2, meta_lr=1e-3):
        self.net = Learner()
        self.inner_lr, self.inner_steps = inner_lr, inner_steps
        self.meta_opt = torch.optim.Adam(self.net.parameters(), lr=meta_lr)

    def adapt(self, x_s, y_s):
        fast = list(self.net.parameters())
        for _ in range(self.inner_steps):
            loss = F.mse_loss(self.net.functional_forward(x_s, fast), y_s)
            grads = torch.autograd.grad(loss, fast)
            fast = [w - self.inner_lr * g.detach() for w, g in zip(fast, grads)]
        return fast

    def meta_step(self, batch):
        x_s, y_s, x_q, y_q = batch
        meta_loss = 0.0
        for i in range(x_s.size(0)):
            fast = self.adapt(x_s[i], y_s[i])
            meta_loss = meta_loss + F.mse_loss(self.net.functional_forward(x_q[i], fast), y_q[i])
        meta_loss = meta_loss / x_s.size(0)
        self.meta_opt.zero_grad()
        meta_loss.backward()
        self.meta_opt.step()
        return meta_loss.item()


def main():
    tasks, maml = SineTasks(), MAML()
    for it in range(20):
        loss = maml.meta_step(tasks.sample(n_tasks=4))
        if it % 5 == 0:
            print(f"meta-iter {it}: query mse {loss:.3f}")


if __name__ == "__main__":
    main()
