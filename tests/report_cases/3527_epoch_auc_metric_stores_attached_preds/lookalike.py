"""Credit-default classifier on tabular features (MLP with embeddings for two
categorical columns).  A training engine runs the update step per batch and
an evaluation engine feeds its outputs to an epoch-level ROC-AUC metric."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from metrics import EpochMetric, roc_auc

torch.manual_seed(0)


class CreditNet(nn.Module):
    def __init__(self, n_num=6, n_region=8, n_job=5):
        super().__init__()
        self.region, self.job = nn.Embedding(n_region, 4), nn.Embedding(n_job, 3)
        self.mlp = nn.Sequential(nn.Linear(n_num + 7, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, num, region, job):
        return self.mlp(torch.cat([num, self.region(region), self.job(job)], 1)).squeeze(1)


def make_loader(n=512, bs=64):
    num = torch.randn(n, 6)
    region, job = torch.randint(0, 8, (n,)), torch.randint(0, 5, (n,))
    logit = 1.2 * num[:, 0] - num[:, 1] + 0.3 * (region == 2).float() - 0.5 * (job == 4).float()
    y = (logit + 0.5 * torch.randn(n) > 0.5).float()
    return [(num[i:i + bs], region[i:i + bs], job[i:i + bs], y[i:i + bs]) for i in range(0, n, bs)]


def update_step(model, optimizer, batch):
    model.train()
    num, region, job, y = batch
    loss = F.binary_cross_entropy_with_logits(model(num, region, job), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


@torch.no_grad()
def eval_step(model, batch):
    model.eval()
    num, region, job, y = batch
    return torch.sigmoid(model(num, region, job)), y


def run(model, optimizer, loader, metric, epochs=3):
    for epoch in range(epochs):
        for batch in loader:
            update_step(model, optimizer, batch)
        metric.reset()
        for batch in loader:
            metric.update(eval_step(model, batch))    # evaluator outputs carry no graph
        print(f"epoch {epoch} AUC {metric.compute():.3f}")


if __name__ == "__main__":
    model = CreditNet()
    run(model, torch.optim.Adam(model.parameters(), lr=3e-3), make_loader(), EpochMetric(roc_auc))
