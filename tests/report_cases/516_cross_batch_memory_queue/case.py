import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class CrossBatchMemory(nn.Module):
    """Contrastive loss against a FIFO queue of embeddings from earlier batches."""

    def __init__(self, embedding_size, memory_size=32, temperature=0.1):
        super().__init__()
        self.memory_size, self.temperature = memory_size, temperature
        self.register_buffer("embedding_memory", torch.zeros(memory_size, embedding_size))
        self.register_buffer("label_memory", torch.full((memory_size,), -1, dtype=torch.long))
        self.queue_idx = 0

    def forward(self, embeddings, labels):
        embeddings = F.normalize(embeddings, dim=1)
        all_emb = torch.cat([embeddings, self.embedding_memory], dim=0)
        all_lab = torch.cat([labels, self.label_memory], dim=0)
        sim = embeddings @ all_emb.t() / self.temperature
        n = embeddings.size(0)
        self_mask = torch.zeros_like(sim, dtype=torch.bool)
        self_mask[:, :n] = torch.eye(n, dtype=torch.bool)
        pos = (labels[:, None] == all_lab[None, :]) & ~self_mask
        log_prob = sim.masked_fill(self_mask, -1e9).log_softmax(dim=1)
        loss = -(log_prob * pos).sum(1) / pos.sum(1).clamp(min=1)
        self.add_to_memory(embeddings, labels)
        return loss.mean()

    @torch.no_grad()
    def add_to_memory(self, embeddings, labels):
        n = embeddings.size(0)
        idx = torch.arange(self.queue_idx, self.queue_idx + n) % self.memory_size
        self.embedding_memory[idx] = embeddings.detach()
        self.label_memory[idx] = labels
        self.queue_idx = (self.queue_idx + n) % self.memory_size


def main():
    trunk = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 16))
    loss_fn = CrossBatchMemory(embedding_size=16)
    optimizer = torch.optim.Adam(trunk.parameters(), lr=1e-3)
    for step in range(5):
        x = torch.randn(8, 20)
        y = torch.randint(0, 3, (8,))
        loss = loss_fn(trunk(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
