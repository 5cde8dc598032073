import torch
import torch.nn.functional as F

from model import SSCNet
from losses import class_weights, compute_loss

torch.manual_seed(0)

N_CLASSES = 5
GRID = (16, 4, 16)


def synthetic_scans(n, batch_size=4):
    batches = []
    for _ in range(n):
        occ = (torch.rand(batch_size, *GRID) > 0.7).float()
        label = torch.randint(0, N_CLASSES, (batch_size, *GRID))
        label = label * occ.long()
        label_1_2 = F.max_pool3d(label.float().unsqueeze(1), 2).squeeze(1).long()
        batches.append({"occupancy": occ, "label_1_1": label, "label_1_2": label_1_2})
    return batches


def train_one_epoch(model, optimizer, dataset, weights, epoch):
    model.train()
    epoch_losses = {}
    for t, data in enumerate(dataset):
        scores = model(data["occupancy"])
        loss = compute_loss(scores, data, weights)
        optimizer.zero_grad()
        loss["total"].backward()
        optimizer.step()
        for key in loss:
            epoch_losses[key] = epoch_losses.get(key, 0) + loss[key].item()
    for key, value in epoch_losses.items():
        print(f"epoch {epoch} train {key}: {float(value) / len(dataset):.4f}")
    return epoch_losses


def validate(model, dataset, weights, epoch):
    model.eval()
    val_losses = {}
    with torch.no_grad():
        for data in dataset:
            scores = model(data["occupancy"])
            loss = compute_loss(scores, data, weights)
            for key in loss:
                val_losses[key] = val_losses.get(key, 0) + loss[key].item()
    print(f"epoch {epoch} val total: {float(val_losses['total']) / len(dataset):.4f}")
    return val_losses


def main():
    train_set, val_set = synthetic_scans(8), synthetic_scans(3)
    freqs = torch.tensor([5e6, 2e5, 1e5, 4e4, 8e3])
    weights = class_weights(freqs)
    model = SSCNet(N_CLASSES, GRID)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.999))
    history = []
    for epoch in range(1, 4):
        history.append(train_one_epoch(model, optimizer, train_set, weights, epoch))
        validate(model, val_set, weights, epoch)
    return history


if __name__ == "__main__":
    main()
