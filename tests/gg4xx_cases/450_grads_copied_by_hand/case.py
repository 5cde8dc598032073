# Federated / shared-model update: a local copy computes the gradients, which are copied
# into the global model's parameters before its optimizer steps (no backward reaches the
# global model, and none needs to).
import torch
import torch.nn as nn

torch.manual_seed(0)
global_model = nn.Linear(5, 1)
local_model = nn.Linear(5, 1)
global_opt = torch.optim.SGD(global_model.parameters(), lr=0.1)
for rnd in range(3):
    local_model.load_state_dict(global_model.state_dict())
    x, y = torch.randn(16, 5), torch.randn(16, 1)
    loss = ((local_model(x) - y) ** 2).mean()
    local_model.zero_grad()
    loss.backward()
    for gp, lp in zip(global_model.parameters(), local_model.parameters()):
        gp.grad = lp.grad.clone()
    global_opt.step()
