"""Fit a small charge model so that PME electrostatic energies and the cell virial match
reference data for a periodic box of ions (the cell is fixed, positions change)."""
import torch
import torch.nn as nn
from calculators_fixed import PMEPotential

torch.manual_seed(0)
n_atoms, n_frames = 12, 6
cell = torch.eye(3).mul(5.0).requires_grad_(True)
frames = [(5.0 * torch.rand(n_atoms, 3), torch.randn(n_atoms, 4)) for _ in range(n_frames)]
reference_energy = torch.randn(n_frames)
reference_virial = 0.1 * torch.randn(n_frames, 3, 3)

charge_model = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
calculator = PMEPotential(atomic_smearing=1.1)
optimizer = torch.optim.Adam(charge_model.parameters(), lr=1e-2)

for epoch in range(2):
    for i, (positions, features) in enumerate(frames):
        charges = charge_model(features)
        charges = charges - charges.mean()
        energy = calculator(positions, charges, cell)
        virial, = torch.autograd.grad(energy, cell, create_graph=True)
        loss = (energy - reference_energy[i]) ** 2 + ((virial - reference_virial[i]) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
