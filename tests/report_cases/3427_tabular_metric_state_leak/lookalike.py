"""Customer-churn classifier on synthetic tabular data (numeric features plus
categorical embeddings), with small stateful metric objects that accumulate
predictions over an epoch for AUC and mean loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_NUM, CARDS = 6, (5, 12, 3)


def make_table(n=1024):
    num = torch.randn(n, N_NUM)
    cat = torch.stack([torch.randint(0, c, (n,)) for c in CARDS], dim=1)
    logit = num[:, 0] - 0.5 * num[:, 1] + 0.3 * (cat[:, 1] % 3 == 0).float() - 0.2
    y = (torch.rand(n) < torch.sigmoid(2 * logit)).float()
    return num, cat, y


class TabularNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(c, 4) for c in CARDS])
        self.bn = nn.BatchNorm1d(N_NUM)
        self.mlp = nn.Sequential(nn.Linear(N_NUM + 4 * len(CARDS), 64), nn.ReLU(), nn.Dropout(0.1),
                                 nn.Linear(64, 1))

    def forward(self, num, cat):
        emb = [e(cat[:, i]) for i, e in enumerate(self.embs)]
        return self.mlp(torch.cat([self.bn(num)] + emb, dim=1)).squeeze(1)


class EpochAUC:
    def __init__(self):
        self.reset()

    def reset(self):
        self.preds, self.targets = [], []

    def update(self, preds, targets):
        self.preds.append(preds)
        self.targets.append(targets)

    def compute(self):
        p, t = torch.cat(self.preds), torch.cat(self.targets)
        pos, neg = p[t == 1], p[t == 0]
        return (pos.unsqueeze(1) > neg.unsqueeze(0)).float().mean().item()


class MeanMetric:
    def __init__(self):
        self.reset()

    def reset(self):
        self.total, self.count = 0.0, 0

    def update(self, value, n):
        self.total = self.total + value * n
        self.count += n

    def compute(self):
        return float(self.total / max(self.count, 1))


def train(epochs=3, batch=64):
    num, cat, y = make_table()
    model = TabularNet()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    auc, mean_loss = EpochAUC(), MeanMetric()
    for epoch in range(epochs):
        perm = torch.randperm(len(y))
        for i in range(0, len(y), batch):
            idx = perm[i : i + batch]
            logits = model(num[idx], cat[idx])
            loss = F.binary_cross_entropy_with_logits(logits, y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            mean_loss.update(loss.item(), len(idx))
        model.eval()
        with torch.no_grad():
            for i in range(0, len(y), 256):
                auc.update(torch.sigmoid(model(num[i : i + 256], cat[i : i + 256])), y[i : i + 256])
        model.train()
        print(f"epoch {epoch}: train loss {mean_loss.compute():.4f} eval AUC {auc.compute():.3f}")
        auc.reset()
        mean_loss.reset()


if __name__ == "__main__":
    train()
