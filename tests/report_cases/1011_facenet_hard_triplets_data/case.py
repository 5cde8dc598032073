import torch
import torch.nn as nn
import torch.nn.functional as F


class PairwiseDistance(nn.Module):
    def __init__(self, p=2, eps=1e-6):
        super().__init__()
        self.norm, self.eps = p, eps

    def forward(self, x1, x2):
        diff = torch.abs(x1 - x2)
        return torch.pow(torch.pow(diff + self.eps, self.norm).sum(dim=1), 1.0 / self.norm)


class TripletMarginLoss(nn.Module):
    def __init__(self, margin):
        super().__init__()
        self.margin = margin
        self.pdist = PairwiseDistance(2)

    def forward(self, anchor, positive, negative):
        d_p = self.pdist(anchor, positive)
        d_n = self.pdist(anchor, negative)
        return torch.clamp(self.margin + d_p - d_n, min=0.0).mean()


class FaceModel(nn.Module):
    def __init__(self, embedding_size=16, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(16, embedding_size)
        self.classifier = nn.Linear(embedding_size, num_classes)

    def l2_norm(self, x):
        return x / x.norm(dim=1, keepdim=True).clamp_min(1e-10)

    def forward(self, x):
        return self.l2_norm(self.fc(self.features(x).flatten(1))) * 10.0


def triplet_batches(n_batches, batch_size=8):
    for _ in range(n_batches):
        yield torch.randn(batch_size, 3, 12, 12), torch.randn(batch_size, 3, 12, 12), torch.randn(batch_size, 3, 12, 12)


def train(model, optimizer, epoch, margin=0.5, n_batches=4):
    l2_dist = PairwiseDistance(2)
    criterion = TripletMarginLoss(margin)
    model.train()
    for batch_idx, (data_a, data_p, data_n) in enumerate(triplet_batches(n_batches)):
        out_a, out_p, out_n = model(data_a), model(data_p), model(data_n)

        # choose the hard negatives
        d_p = l2_dist(out_a, out_p)
        d_n = l2_dist(out_a, out_n)
        all_hard = (d_n - d_p < margin).flatten()
        if not (hard_triplets := torch.nonzero(all_hard).flatten()).numel():
            continue

        out_selected_a = out_a.cpu().data[hard_triplets]
        out_selected_p = out_p.cpu().data[hard_triplets]
        out_selected_n = out_n.cpu().data[hard_triplets]

        triplet_loss = criterion(out_selected_a, out_selected_p, out_selected_n)
        optimizer.zero_grad()
        triplet_loss.backward()
        optimizer.step()
        print(f"epoch {epoch} batch {batch_idx} hard {hard_triplets.numel()} loss {triplet_loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = FaceModel()
    optimizer = torch.optim.Adagrad(model.parameters(), lr=0.1, weight_decay=1e-4)
    for epoch in range(2):
        train(model, optimizer, epoch)
