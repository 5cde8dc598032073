# Discriminative learning rates: the backbone has its own (small) learning rate, but its
# forward was left under torch.no_grad() from the feature-extraction version.
import torch
import torch.nn as nn

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
head = nn.Linear(16, 4)
opt_backbone = torch.optim.SGD(backbone.parameters(), lr=1e-4, momentum=0.9)
opt_head = torch.optim.SGD(head.parameters(), lr=1e-2, momentum=0.9)
criterion = nn.CrossEntropyLoss()


def train_step(x, y):
    with torch.no_grad():
        feats = backbone(x)
    loss = criterion(head(feats), y)
    opt_backbone.zero_grad()
    opt_head.zero_grad()
    loss.backward()
    opt_backbone.step()
    opt_head.step()
    return loss.item()


for it in range(3):
    train_step(torch.randn(8, 20), torch.randint(0, 4, (8,)))
