"""Deep metric learning with a cross-batch memory (XBM): embeddings of past
mini-batches are kept in a ring buffer and used as extra negatives/positives
for a contrastive loss on the current batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CLASSES, IN_DIM, EMB_DIM = 10, 24, 16


class EmbeddingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(IN_DIM, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, EMB_DIM))

    def forward(self, x):
        return F.normalize(self.body(x), dim=1)


class XBM:
    def __init__(self, size=256):
        self.K = size
        self.feats = torch.zeros(size, EMB_DIM)
        self.targets = torch.full((size,), -1, dtype=torch.long)
        self.ptr = 0

    @property
    def is_full(self):
        return self.targets[-1].item() != -1

    def get(self):
        if self.is_full:
            return self.feats, self.targets
        return self.feats[: self.ptr], self.targets[: self.ptr]

    def enqueue_dequeue(self, feats, targets):
        q = feats.size(0)
        if self.ptr + q > self.K:
            self.ptr = 0
        self.feats[self.ptr : self.ptr + q] = feats
        self.targets[self.ptr : self.ptr + q] = targets
        self.ptr += q


def contrastive_loss(anchor, a_lbl, ref, r_lbl, margin=0.5, same=False):
    sim = anchor @ ref.t()
    pos_mask = a_lbl.unsqueeze(1) == r_lbl.unsqueeze(0)
    if same:
        pos_mask.fill_diagonal_(False)
    pos_loss = ((1 - sim) * pos_mask).sum()
    neg_loss = (F.relu(sim - margin) * (~pos_mask)).sum()
    return (pos_loss + neg_loss) / anchor.size(0)


def sample_batch(centers, n_per_class=4, classes_per_batch=8):
    cls = torch.randperm(N_CLASSES)[:classes_per_batch].repeat_interleave(n_per_class)
    x = centers[cls] + 0.5 * torch.randn(cls.numel(), IN_DIM)
    return x, cls


def main(iters=20, xbm_start=2, xbm_weight=1.0):
    centers = 2 * torch.randn(N_CLASSES, IN_DIM)
    model = EmbeddingNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    xbm = XBM()
    for it in range(iters):
        x, y = sample_batch(centers)
        feats = model(x)
        loss = contrastive_loss(feats, y, feats, y, same=True)
        mem_feats, mem_y = xbm.get()
        if it >= xbm_start and mem_y.numel() > 0:
            loss = loss + xbm_weight * contrastive_loss(feats, y, mem_feats, mem_y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            xbm.enqueue_dequeue(feats, y)
        if it % 5 == 0:
            print(f"iter {it}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
