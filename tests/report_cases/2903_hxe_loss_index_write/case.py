"""Hierarchical cross-entropy (HXE, "Making Better Mistakes") on a 2-level class tree.
Leaves: 6 fine classes; coarse level: 3 super-classes of 2 leaves each."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_FINE, N_COARSE = 6, 3
PARENT = torch.tensor([0, 0, 1, 1, 2, 2])


class HierarchicalCrossEntropyLoss(nn.Module):
    def __init__(self, alpha=0.5):
        super().__init__()
        # weight of each edge on the path, leaf edge first: exp(-alpha * height)
        self.weights = [1.0, float(torch.exp(torch.tensor(-alpha)))]
        to_coarse = F.one_hot(PARENT, N_COARSE).float()          # (fine, coarse)
        same_parent = to_coarse @ to_coarse.t()                   # (fine, fine)
        # numerator / denominator mappings per level, as in the reference code
        self.onehot_num = [torch.eye(N_FINE), same_parent]
        self.onehot_den = [same_parent, torch.ones(N_FINE, N_FINE)]

    def forward(self, logits, target):
        probs = F.softmax(logits, dim=1)
        loss = 0.0
        for level in range(2):
            if level == 0:
                num = probs  # leaf level: identity mapping, skip the matmul
            else:
                num = probs @ self.onehot_num[level]
            den = probs @ self.onehot_den[level]
            idx = num != 0
            num[idx] = -torch.log(num[idx] / den[idx])
            loss = loss + self.weights[level] * num.gather(1, target[:, None]).squeeze(1)
        return loss.mean()


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, N_FINE))

    def forward(self, x):
        return self.net(x)


model = Classifier()
criterion = HierarchicalCrossEntropyLoss(alpha=0.5)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(64, 10)
y = torch.randint(0, N_FINE, (64,))

for epoch in range(3):
    for i in range(0, 64, 16):
        logits = model(X[i:i + 16])
        loss = criterion(logits, y[i:i + 16])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("epoch", epoch, "HXE", round(loss.item(), 4))
