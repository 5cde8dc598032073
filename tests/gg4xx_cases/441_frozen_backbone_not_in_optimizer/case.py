# Feature extraction: the backbone stays frozen on purpose (no_grad, not in the optimizer);
# only the head trains.
import torch
import torch.nn as nn

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
for p in backbone.parameters():
    p.requires_grad = False
head = nn.Linear(16, 4)
optimizer = torch.optim.SGD(head.parameters(), lr=1e-2, momentum=0.9)
criterion = nn.CrossEntropyLoss()
backbone.eval()
for it in range(3):
    x, y = torch.randn(8, 20), torch.randint(0, 4, (8,))
    with torch.no_grad():
        feats = backbone(x)
    loss = criterion(head(feats), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
