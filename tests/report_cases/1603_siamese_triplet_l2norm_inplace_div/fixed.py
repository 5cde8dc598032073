"""Triplet-network metric learning on small 28x28 glyphs with L2-normalised embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from networks import EmbeddingNet, TripletNet

torch.manual_seed(0)
N_CLASSES = 5
MARGIN = 0.2
EPOCHS = 2


class NormalizedEmbeddingNet(EmbeddingNet):
    def forward(self, x):
        return F.normalize(super().forward(x), p=2, dim=1)


def make_dataset(n_per_class=40):
    prototypes = torch.rand(N_CLASSES, 1, 28, 28)
    images, labels = [], []
    for c in range(N_CLASSES):
        images.append(prototypes[c] + 0.3 * torch.randn(n_per_class, 1, 28, 28))
        labels.append(torch.full((n_per_class,), c, dtype=torch.long))
    return torch.cat(images), torch.cat(labels)


def sample_triplets(labels, n):
    anchors, positives, negatives = [], [], []
    for _ in range(n):
        c = torch.randint(N_CLASSES, (1,)).item()
        pos_idx = (labels == c).nonzero().squeeze(1)
        neg_idx = (labels != c).nonzero().squeeze(1)
        a, p = pos_idx[torch.randperm(len(pos_idx))[:2]].tolist()
        anchors.append(a)
        positives.append(p)
        negatives.append(neg_idx[torch.randint(len(neg_idx), (1,))].item())
    return torch.tensor(anchors), torch.tensor(positives), torch.tensor(negatives)


def train_epoch(model, loss_fn, optimizer, images, labels, n_batches=6, batch_size=16):
    model.train()
    losses = []
    for _ in range(n_batches):
        a, p, n = sample_triplets(labels, batch_size)
        emb_a, emb_p, emb_n = model(images[a], images[p], images[n])
        loss = loss_fn(emb_a, emb_p, emb_n)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return sum(losses) / len(losses)


@torch.no_grad()
def mean_class_separation(model, images, labels):
    model.eval()
    emb = model.get_embedding(images)
    centroids = torch.stack([emb[labels == c].mean(0) for c in range(N_CLASSES)])
    return torch.cdist(centroids, centroids).mean().item()


def main():
    images, labels = make_dataset()
    embedding_net = NormalizedEmbeddingNet(emb_dim=16)
    model = TripletNet(embedding_net)
    loss_fn = nn.TripletMarginLoss(margin=MARGIN)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(EPOCHS):
        train_loss = train_epoch(model, loss_fn, optimizer, images, labels)
        print(f"epoch {epoch}: triplet loss {train_loss:.4f}, "
              f"centroid distance {mean_class_separation(model, images, labels):.4f}")


if __name__ == "__main__":
    main()
