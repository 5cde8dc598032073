"""Cross-batch memory (XBM) for metric learning: embeddings of past batches are kept in a
FIFO queue and used as extra negatives/positives for a contrastive loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ContrastiveLoss(nn.Module):
    def __init__(self, pos_margin=0.0, neg_margin=0.5):
        super().__init__()
        self.pos_margin, self.neg_margin = pos_margin, neg_margin

    def forward(self, emb, labels, ref_emb, ref_labels):
        dist = torch.cdist(emb, ref_emb)
        same = labels[:, None] == ref_labels[None, :]
        pos = F.relu(dist[same] - self.pos_margin)
        neg = F.relu(self.neg_margin - dist[~same])
        return pos.pow(2).mean() + neg.pow(2).mean()


class CrossBatchMemory(nn.Module):
    def __init__(self, loss, embedding_size, memory_size=32):
        super().__init__()
        self.loss, self.memory_size = loss, memory_size
        self.embedding_memory = torch.zeros(0, embedding_size)
        self.label_memory = torch.zeros(0, dtype=torch.long)

    def add_to_memory(self, embeddings, labels):
        self.embedding_memory = torch.cat([self.embedding_memory, embeddings])[-self.memory_size:]
        self.label_memory = torch.cat([self.label_memory, labels])[-self.memory_size:]

    def forward(self, embeddings, labels):
        # compare against the current batch plus the (graph-free) memory, then enqueue a copy
        ref_emb = torch.cat([embeddings, self.embedding_memory])
        ref_labels = torch.cat([labels, self.label_memory])
        loss = self.loss(embeddings, labels, ref_emb, ref_labels)
        self.add_to_memory(embeddings.detach(), labels)
        return loss


trunk = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 8))
loss_fn = CrossBatchMemory(ContrastiveLoss(), embedding_size=8, memory_size=32)
optimizer = torch.optim.Adam(trunk.parameters(), lr=1e-3)

for it in range(4):
    x = torch.randn(8, 20)
    labels = torch.randint(0, 4, (8,))
    embeddings = F.normalize(trunk(x), dim=1)
    loss = loss_fn(embeddings, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print("iter", it, "loss", round(loss.item(), 4), "memory", len(loss_fn.embedding_memory))
