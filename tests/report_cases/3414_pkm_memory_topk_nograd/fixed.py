"""Small language model with a key-value memory layer (product-key-memory
style): each position queries a learned key table, takes the top-k keys and
mixes the matching value vectors. Keys get their own optimiser and lr."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, DIM, QDIM, N_KEYS, TOPK, CTX = 40, 32, 16, 128, 8, 12


class HashingMemory(nn.Module):
    def __init__(self):
        super().__init__()
        self.query_proj = nn.Sequential(nn.Linear(DIM, QDIM), nn.BatchNorm1d(QDIM))
        self.keys = nn.Parameter(torch.randn(N_KEYS, QDIM) / QDIM ** 0.5)
        self.values = nn.Embedding(N_KEYS, DIM)

    def get_indices(self, query):
        with torch.no_grad():
            scores = query @ self.keys.t()
            top_scores, top_idx = scores.topk(TOPK, dim=1)
        return top_scores, top_idx

    def forward(self, h):
        b, t, d = h.shape
        query = self.query_proj(h.reshape(b * t, d))
        _, idx = self.get_indices(query)
        scores = (query.unsqueeze(1) * self.keys[idx]).sum(dim=-1)
        weights = F.softmax(scores, dim=-1)
        out = (weights.unsqueeze(-1) * self.values(idx)).sum(dim=1)
        return out.view(b, t, d)


class MemoryLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.mix = nn.GRU(DIM, DIM, batch_first=True)
        self.memory = HashingMemory()
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, idx):
        h, _ = self.mix(self.embed(idx))
        h = h + self.memory(h)
        return self.head(h)


def make_data(n=400):
    a = torch.randint(0, VOCAB, (n, 1))
    b = torch.randint(1, 5, (n, 1))
    return (a + b * torch.arange(CTX + 1)) % VOCAB


def main():
    model = MemoryLM()
    key_params = [model.memory.keys]
    other = [p for n, p in model.named_parameters() if n != "memory.keys"]
    opt = torch.optim.Adam(other, lr=2e-3)
    opt_keys = torch.optim.Adam(key_params, lr=1e-2)
    data = make_data()
    for step in range(20):
        batch = data[torch.randint(0, len(data), (32,))]
        logits = model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        opt_keys.zero_grad()
        loss.backward()
        opt.step()
        opt_keys.step()
        if step % 5 == 0:
            print(f"step {step}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
