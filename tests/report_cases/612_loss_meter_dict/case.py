import torch

from losses import compute_loss
from meters import LossMeter
from model import SSCNet


def train_epoch(model, optimizer, batches):
    model.train()
    meter = LossMeter()
    for voxels, labels, occ in batches:
        scores = model(voxels)
        loss = compute_loss(scores, labels, occ)
        optimizer.zero_grad()
        loss["total"].backward()
        optimizer.step()
        meter.update(loss)
    return meter.averages()


def main():
    torch.manual_seed(0)
    model = SSCNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    batches = []
    for _ in range(6):
        labels = torch.randint(0, 5, (2, 12, 12))
        batches.append((torch.randn(2, 4, 12, 12), labels, (labels > 0).float()))
    for epoch in range(2):
        stats = train_epoch(model, optimizer, batches)
        print(epoch, {k: round(float(v), 4) for k, v in stats.items()})


if __name__ == "__main__":
    main()
