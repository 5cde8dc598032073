"""Full-batch L-BFGS fit of a linear regression model; the forward pass lives in the closure."""
import torch
from torch import nn, optim

x = torch.rand(size=(100, 10))
y = x @ torch.linspace(-1, 1, 10)[:, None] + 0.05 * torch.rand(size=(100, 1))


class LinearRegression(nn.Module):
    def __init__(self, p):
        super(LinearRegression, self).__init__()
        self.p = p
        self.lin = nn.Linear(p, 1)

    def forward(self, x):
        return self.lin(x)


model = LinearRegression(x.size(1))
optimizer = optim.LBFGS(model.parameters(), lr=0.5, max_iter=10, history_size=5,
                        line_search_fn="strong_wolfe")
criterion = nn.MSELoss()


def closure():
    optimizer.zero_grad()
    pred = model(x)
    loss = criterion(pred, y.view(pred.shape))
    loss.backward()
    return loss


losses = []
for epoch in range(4):
    loss = optimizer.step(closure)
    losses.append(loss.item())
    print(f"epoch {epoch} loss {losses[-1]:.6f}")
