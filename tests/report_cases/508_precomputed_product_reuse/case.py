import torch

torch.manual_seed(0)
measure = torch.nn.MSELoss()

x = torch.tensor([1.0, 0.0], dtype=torch.float64)
t = torch.eye(2, dtype=torch.float64, requires_grad=True)
a = torch.ones(2, dtype=torch.float64, requires_grad=True)
optimizer = torch.optim.SGD([t, a], lr=0.05)

# the offset does not depend on the data, so compute it only once
y = t @ a

history = []
for step in range(4):
    optimizer.zero_grad()
    x_out = t @ (x + y)
    loss = measure(x_out, x)
    loss.backward()
    optimizer.step()
    history.append(loss.item())

print("losses:", [round(v, 5) for v in history])
