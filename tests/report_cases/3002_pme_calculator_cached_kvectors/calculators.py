"""Reciprocal-space (Ewald/PME-style) Coulomb energy with a cache of k-vectors and the
influence function, recomputed only when the cell changes."""
import math
import torch
import torch.nn as nn


class PMEPotential(nn.Module):
    def __init__(self, atomic_smearing=1.0, mesh_points=3):
        super().__init__()
        self.atomic_smearing = atomic_smearing
        grid = torch.arange(-mesh_points, mesh_points + 1, dtype=torch.float32)
        ns = torch.cartesian_prod(grid, grid, grid)
        self.register_buffer("ns", ns[(ns != 0).any(dim=1)])
        self._cached_cell = None
        self._cached_kvectors = None
        self._cached_influence = None

    def _compute_kvectors(self, cell):
        reciprocal_cell = 2 * math.pi * torch.linalg.inv(cell).T
        return self.ns @ reciprocal_cell

    def _influence_function(self, kvectors):
        k_sq = (kvectors ** 2).sum(dim=1)
        return 4 * math.pi * torch.exp(-0.5 * self.atomic_smearing ** 2 * k_sq) / k_sq

    def _prepare(self, cell):
        if self._cached_cell is None or not torch.equal(cell.detach(), self._cached_cell):
            self._cached_cell = cell.detach().clone()
            self._cached_kvectors = self._compute_kvectors(cell)
            self._cached_influence = self._influence_function(self._cached_kvectors)
        return self._cached_kvectors, self._cached_influence

    def forward(self, positions, charges, cell):
        kvectors, influence = self._prepare(cell)
        phase = positions @ kvectors.T
        s_re = (charges * torch.cos(phase)).sum(dim=0)
        s_im = (charges * torch.sin(phase)).sum(dim=0)
        volume = torch.det(cell)
        return (influence * (s_re ** 2 + s_im ** 2)).sum() / (2 * volume)
