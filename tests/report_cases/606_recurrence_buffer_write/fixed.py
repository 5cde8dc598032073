# Fit a one-parameter-pair logistic recurrence f(n) = sigmoid(w * f(n-1) + b)
# to an observed trajectory, writing the states into a preallocated buffer.
import torch
import torch.nn as nn


class LogisticRecurrence(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor(0.5))
        self.b = nn.Parameter(torch.tensor(0.0))

    def forward(self, f0, steps):
        # keep every state as its own tensor and stack once at the end
        states = [torch.tensor(f0)]
        for i in range(1, steps):
            pre = states[i - 1] * self.w + self.b
            states.append(1.0 / (1.0 + torch.exp(-pre)))
        return torch.stack(states)


def main():
    torch.manual_seed(0)
    target = torch.linspace(0.5, 0.9, 10)
    model = LogisticRecurrence()
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for epoch in range(5):
        traj = model(0.5, 10)
        loss = ((traj - target) ** 2).sum()
        opt.zero_grad()
        grads = torch.autograd.grad(loss, list(model.parameters()))
        for p, g in zip(model.parameters(), grads):
            p.grad = g
        opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
