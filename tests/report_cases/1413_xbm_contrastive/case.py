import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import contrastive_loss
from memory import CrossBatchMemory

CONFIG = dict(
    in_dim=20,
    embed_dim=8,
    n_classes=4,
    batch_size=12,
    memory_size=48,
    xbm_start_iter=1,
    iters=4,
    lr=1e-3,
)


class Embedder(nn.Module):
    def __init__(self, in_dim, embed_dim):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.embedder = nn.Linear(32, embed_dim)

    def forward(self, x):
        return F.normalize(self.embedder(self.trunk(x)), dim=1)


def sample_batch(cfg, prototypes):
    labels = torch.randint(0, cfg["n_classes"], (cfg["batch_size"],))
    x = prototypes[labels] + 0.3 * torch.randn(cfg["batch_size"], cfg["in_dim"])
    return x, labels


def main(cfg=CONFIG):
    torch.manual_seed(0)
    prototypes = torch.randn(cfg["n_classes"], cfg["in_dim"])
    model = Embedder(cfg["in_dim"], cfg["embed_dim"])
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    xbm = CrossBatchMemory(cfg["memory_size"])

    for it in range(cfg["iters"]):
        x, labels = sample_batch(cfg, prototypes)
        embeddings = model(x)
        loss = contrastive_loss(embeddings, labels, embeddings, labels)

        if it >= cfg["xbm_start_iter"]:
            xbm.enqueue(embeddings, labels)
            mem_emb, mem_labels = xbm.get()
            loss = loss + contrastive_loss(embeddings, labels, mem_emb, mem_labels)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it}: loss {loss.item():.4f} memory {len(xbm)}")


if __name__ == "__main__":
    main()
