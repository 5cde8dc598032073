import torch
import torch.nn as nn
import torch.nn.functional as F

encoder, head_a, head_b = nn.Linear(5, 8), nn.Linear(8, 2), nn.Linear(8, 1)
opt = torch.optim.Adam(list(encoder.parameters()) + list(head_a.parameters()) +
                       list(head_b.parameters()))


def train_step(x, ya, yb):
    z = torch.relu(encoder(x))
    loss_a = F.cross_entropy(head_a(z), ya)
    loss_b = F.mse_loss(head_b(z).squeeze(-1), yb)
    opt.zero_grad()
    loss_a.backward()
    loss_b.backward()
    opt.step()


for _ in range(2):
    train_step(torch.randn(4, 5), torch.randint(0, 2, (4,)), torch.randn(4))
