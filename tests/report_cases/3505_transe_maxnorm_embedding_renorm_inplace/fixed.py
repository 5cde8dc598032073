"""TransE knowledge-graph embedding with an auxiliary entity-type classifier.
Entity vectors are projected back into the unit ball after every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_ENT, N_REL, N_TYPES, DIM = 50, 6, 4, 16


class TransE(nn.Module):
    def __init__(self):
        super().__init__()
        self.ent = nn.Embedding(N_ENT, DIM)
        self.rel = nn.Embedding(N_REL, DIM)
        self.type_head = nn.Linear(DIM, N_TYPES)

    def distance(self, h, r, t):
        return (h + r - t).norm(p=1, dim=1)

    def forward(self, heads, rels, tails, neg_tails):
        # auxiliary supervision: every entity has a known coarse type
        type_logits = self.type_head(self.ent.weight)
        h, r = self.ent(heads), self.rel(rels)
        pos = self.distance(h, r, self.ent(tails))
        neg = self.distance(h, r, self.ent(neg_tails))
        return pos, neg, type_logits


def sample_triples(n=32):
    heads = torch.randint(0, N_ENT, (n,))
    rels = torch.randint(0, N_REL, (n,))
    tails = (heads * 7 + rels * 3) % N_ENT          # a deterministic toy graph
    return heads, rels, tails, torch.randint(0, N_ENT, (n,))


def main():
    entity_types = torch.arange(N_ENT) % N_TYPES
    model = TransE()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(8):
        heads, rels, tails, negs = sample_triples()
        pos, neg, type_logits = model(heads, rels, tails, negs)
        rank_loss = F.relu(1.0 + pos - neg).mean()
        type_loss = F.cross_entropy(type_logits, entity_types)
        loss = rank_loss + 0.1 * type_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():   # TransE projection, outside of autograd
            norms = model.ent.weight.norm(dim=1, keepdim=True).clamp(min=1.0)
            model.ent.weight.div_(norms)
        print(f"step {step} rank {rank_loss.item():.3f} type {type_loss.item():.3f}")


if __name__ == "__main__":
    main()
