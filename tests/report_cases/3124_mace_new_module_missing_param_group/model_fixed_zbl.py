import torch
import torch.nn as nn


class BesselBasis(nn.Module):
    def __init__(self, r_max=5.0, num_basis=6):
        super().__init__()
        self.register_buffer("freqs", torch.arange(1, num_basis + 1) * torch.pi / r_max)
        self.r_max = r_max

    def forward(self, r):
        return torch.sin(self.freqs * r[..., None]) / r[..., None]


class InteractionBlock(nn.Module):
    def __init__(self, dim=16, num_basis=6):
        super().__init__()
        self.linear_up = nn.Linear(dim, dim, bias=False)
        self.conv_tp_weights = nn.Sequential(nn.Linear(num_basis, 16), nn.SiLU(), nn.Linear(16, dim))
        self.linear = nn.Linear(dim, dim, bias=False)

    def forward(self, node_feats, edge_basis, senders, receivers):
        messages = self.linear_up(node_feats)[senders] * self.conv_tp_weights(edge_basis)
        agg = torch.zeros_like(node_feats).index_add(0, receivers, messages)
        return self.linear(agg)


class PairRepulsion(nn.Module):
    """Fixed short-range repulsion added to the learned energy (ZBL-like, tabulated constants)."""

    def __init__(self):
        super().__init__()
        self.register_buffer("a", torch.tensor(0.5))
        self.register_buffer("b", torch.tensor(1.5))

    def forward(self, r):
        return (self.a * torch.exp(-self.b * r) / r).sum()


class MACE(nn.Module):
    def __init__(self, num_elements=3, dim=16, num_interactions=2):
        super().__init__()
        self.node_embedding = nn.Linear(num_elements, dim, bias=False)
        self.radial_embedding = BesselBasis()
        self.interactions = nn.ModuleList([InteractionBlock(dim) for _ in range(num_interactions)])
        self.products = nn.ModuleList([nn.Linear(dim, dim) for _ in range(num_interactions)])
        self.readouts = nn.ModuleList([nn.Linear(dim, 1) for _ in range(num_interactions)])
        self.pair_repulsion = PairRepulsion()

    def forward(self, node_attrs, positions, senders, receivers):
        r = (positions[receivers] - positions[senders]).norm(dim=-1)
        edge_basis = self.radial_embedding(r)
        node_feats = self.node_embedding(node_attrs)
        energy = self.pair_repulsion(r)
        for interaction, product, readout in zip(self.interactions, self.products, self.readouts):
            node_feats = torch.tanh(product(interaction(node_feats, edge_basis, senders, receivers))) + node_feats
            energy = energy + readout(node_feats).sum()
        return energy
