# Self-distillation: the target is computed under no_grad from the same model; the loss
# still has a graph through the prediction.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 5))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    x = torch.randn(10, 8)
    with torch.no_grad():
        soft_target = F.softmax(net(x + 0.05 * torch.randn_like(x)) / 2.0, dim=1)
    pred = F.log_softmax(net(x) / 2.0, dim=1)
    loss = F.kl_div(pred, soft_target, reduction="batchmean")
    opt.zero_grad()
    loss.backward()
    opt.step()
