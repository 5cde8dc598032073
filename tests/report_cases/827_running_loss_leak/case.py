"""Label-model style training loop that tracks the epoch loss for early stopping."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LabelModel(nn.Module):
    def __init__(self, n_lfs=6, n_classes=3):
        super().__init__()
        self.accuracy = nn.Parameter(torch.full((n_lfs,), 0.7))
        self.class_balance = nn.Parameter(torch.zeros(n_classes))
        self.proj = nn.Linear(n_lfs, n_classes)

    def forward(self, votes):
        weighted = votes * torch.sigmoid(self.accuracy)
        return F.log_softmax(self.proj(weighted) + self.class_balance, dim=-1)


model = LabelModel()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
votes_all = torch.randint(-1, 2, (256, 6)).float()
targets_all = torch.randint(0, 3, (256,))
best, patience = float("inf"), 0

for epoch in range(4):
    running_loss = 0.0
    for i in range(0, 256, 32):
        votes, targets = votes_all[i:i + 32], targets_all[i:i + 32]
        optimizer.zero_grad()
        loss = F.nll_loss(model(votes), targets)
        loss.backward()
        optimizer.step()
        running_loss += loss
    epoch_loss = running_loss / 8
    if epoch_loss < best - 1e-4:
        best, patience = epoch_loss, 0
    else:
        patience += 1
    print(f"epoch {epoch} loss {float(epoch_loss):.4f}")
