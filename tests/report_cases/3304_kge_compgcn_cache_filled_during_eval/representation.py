"""CompGCN-style combined entity/relation representation with a per-step buffer."""
import torch
import torch.nn as nn


class CompGCNRepresentation(nn.Module):
    def __init__(self, num_entities, num_relations, triples, dim=16, num_layers=2):
        super().__init__()
        self.entity_embeddings = nn.Embedding(num_entities, dim)
        self.relation_embeddings = nn.Embedding(num_relations, dim)
        self.layers = nn.ModuleList(nn.Linear(dim, dim) for _ in range(num_layers))
        self.relation_updates = nn.ModuleList(nn.Linear(dim, dim) for _ in range(num_layers))
        self.register_buffer("heads", triples[:, 0])
        self.register_buffer("rels", triples[:, 1])
        self.register_buffer("tails", triples[:, 2])
        self.enriched_representations = None

    def _enrich(self):
        x_e = self.entity_embeddings.weight
        x_r = self.relation_embeddings.weight
        for layer, rel_update in zip(self.layers, self.relation_updates):
            msg = x_e[self.heads] * x_r[self.rels]
            agg = torch.zeros_like(x_e).index_add(0, self.tails, msg)
            x_e = torch.tanh(layer(agg) + x_e)
            x_r = rel_update(x_r)
        return x_e, x_r

    def forward(self):
        if self.enriched_representations is None:
            self.enriched_representations = self._enrich()
        return self.enriched_representations

    def post_parameter_update(self):
        self.enriched_representations = None


class CompGCN(nn.Module):
    def __init__(self, num_entities, num_relations, triples, dim=16):
        super().__init__()
        self.combined = CompGCNRepresentation(num_entities, num_relations, triples, dim)

    def score_hrt(self, hrt):
        x_e, x_r = self.combined()
        return (x_e[hrt[:, 0]] * x_r[hrt[:, 1]] * x_e[hrt[:, 2]]).sum(-1)

    def score_t(self, hr):
        x_e, x_r = self.combined()
        return (x_e[hr[:, 0]] * x_r[hr[:, 1]]) @ x_e.t()

    def post_parameter_update(self):
        self.combined.post_parameter_update()
