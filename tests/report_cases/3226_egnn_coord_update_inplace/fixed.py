"""Iterative structure refinement with EGNN blocks and deep supervision: every block's
coordinates are scored against the target structure (intermediate losses)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def unsorted_segment_sum(data, segment_ids, num_segments):
    result = data.new_zeros((num_segments, data.size(1)))
    segment_ids = segment_ids.unsqueeze(-1).expand(-1, data.size(1))
    return result.scatter_add(0, segment_ids, data)


class E_GCL(nn.Module):
    def __init__(self, nf, hidden_nf, inplace_coords=True):
        super().__init__()
        self.edge_mlp = nn.Sequential(nn.Linear(2 * nf + 1, hidden_nf), nn.SiLU(),
                                      nn.Linear(hidden_nf, hidden_nf), nn.SiLU())
        self.node_mlp = nn.Sequential(nn.Linear(nf + hidden_nf, hidden_nf), nn.SiLU(),
                                      nn.Linear(hidden_nf, nf))
        self.coord_mlp = nn.Sequential(nn.Linear(hidden_nf, hidden_nf), nn.SiLU(),
                                       nn.Linear(hidden_nf, 1, bias=False))
        self.inplace_coords = inplace_coords

    def coord2radial(self, edge_index, coord):
        row, col = edge_index
        coord_diff = coord[row] - coord[col]
        radial = torch.sum(coord_diff ** 2, 1, keepdim=True)
        return radial, coord_diff

    def edge_model(self, source, target, radial):
        return self.edge_mlp(torch.cat([source, target, radial], dim=1))

    def node_model(self, h, edge_index, edge_attr):
        row, _ = edge_index
        agg = unsorted_segment_sum(edge_attr, row, h.size(0))
        return h + self.node_mlp(torch.cat([h, agg], dim=1))

    def coord_model(self, coord, edge_index, coord_diff, edge_feat):
        row, _ = edge_index
        trans = coord_diff * self.coord_mlp(edge_feat)
        agg = unsorted_segment_sum(trans, row, coord.size(0)) / 8.0
        if self.inplace_coords:
            coord += agg
        else:
            coord = coord + agg
        return coord

    def forward(self, h, edge_index, coord):
        row, col = edge_index
        radial, coord_diff = self.coord2radial(edge_index, coord)
        edge_feat = self.edge_model(h[row], h[col], radial)
        coord = self.coord_model(coord, edge_index, coord_diff, edge_feat)
        h = self.node_model(h, edge_index, edge_feat)
        return h, coord


torch.manual_seed(0)


def fully_connected_edges(n):
    rows, cols = zip(*[(i, j) for i in range(n) for j in range(n) if i != j])
    return torch.tensor(rows), torch.tensor(cols)


class CoordinateRefiner(nn.Module):
    def __init__(self, in_nf=5, nf=16, n_layers=3, inplace_coords=True):
        super().__init__()
        self.embedding = nn.Linear(in_nf, nf)
        self.init_coords = nn.Linear(nf, 3)
        self.layers = nn.ModuleList([E_GCL(nf, nf, inplace_coords) for _ in range(n_layers)])

    def forward(self, atom_feats, edge_index, target):
        h = self.embedding(atom_feats)
        coord = self.init_coords(h)          # initial guess from the node embedding
        # intermediate supervision: every refinement stage should approach the target
        aux_loss = F.mse_loss(coord, target)
        for layer in self.layers:
            h, coord = layer(h, edge_index, coord)
            aux_loss = aux_loss + F.mse_loss(coord, target)
        return coord, aux_loss / (len(self.layers) + 1)


def main(steps=5, n_atoms=9):
    edge_index = fully_connected_edges(n_atoms)
    model = CoordinateRefiner(inplace_coords=False)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        atom_feats = torch.randn(n_atoms, 5)
        target = torch.randn(n_atoms, 3)
        final_coord, loss = model(atom_feats, edge_index, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
