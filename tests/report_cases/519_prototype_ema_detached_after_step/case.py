import itertools
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CLASSES, FEAT = 3, 16


class PrototypeAligner(nn.Module):
    """Keeps per-class prototypes of student and teacher features across iterations."""

    def __init__(self, momentum=0.9):
        super().__init__()
        self.momentum = momentum
        self.prototype_s = torch.zeros(N_CLASSES, FEAT)
        self.prototype_t = torch.zeros(N_CLASSES, FEAT)

    def update(self, feats_s, feats_t, labels):
        onehot = F.one_hot(labels, N_CLASSES).float()
        counts = onehot.sum(0).clamp(min=1).unsqueeze(1)
        mean_s = onehot.t() @ feats_s / counts
        mean_t = onehot.t() @ feats_t / counts
        m = self.momentum
        self.prototype_s = m * self.prototype_s + (1 - m) * mean_s
        self.prototype_t = m * self.prototype_t + (1 - m) * mean_t

    def forward(self):
        loss_pro = -F.cosine_similarity(self.prototype_s, self.prototype_t).abs().mean()
        loss_c = 0
        for i, j in itertools.combinations(range(N_CLASSES), 2):
            loss_c += F.cosine_similarity(self.prototype_s[i:i + 1], self.prototype_s[j:j + 1]).abs().mean()
        return loss_pro, loss_c / math.comb(N_CLASSES, 2)

    def end_iteration(self):
        # the gradients have been used: keep only the values of the running prototypes
        self.prototype_s = self.prototype_s.detach()
        self.prototype_t = self.prototype_t.detach()


def main():
    student = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, FEAT))
    teacher = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, FEAT))
    for p in teacher.parameters():
        p.requires_grad_(False)
    aligner = PrototypeAligner()
    optimizer = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)
    for it in range(5):
        x = torch.randn(12, 10)
        labels = torch.randint(0, N_CLASSES, (12,))
        with torch.no_grad():
            feats_t = teacher(x)
        aligner.update(student(x), feats_t, labels)
        loss_pro, loss_c = aligner()
        loss = loss_pro + 0.1 * loss_c
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        aligner.end_iteration()
        with torch.no_grad():  # mean teacher
            for pt, ps in zip(teacher.parameters(), student.parameters()):
                pt.mul_(0.99).add_(ps, alpha=0.01)
        print(it, round(loss.item(), 4))


if __name__ == "__main__":
    main()
