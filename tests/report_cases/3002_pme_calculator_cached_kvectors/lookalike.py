"""Fit a small charge model so that PME electrostatic energies match reference data for a
periodic box of ions; the cell is a fixed constant, so the calculator's k-vector cache is reused."""
import torch
import torch.nn as nn
from calculators import PMEPotential

torch.manual_seed(0)
n_atoms, n_frames = 12, 6
cell = 5.0 * torch.eye(3)
frames = [(5.0 * torch.rand(n_atoms, 3), torch.randn(n_atoms, 4)) for _ in range(n_frames)]
reference_energy = torch.randn(n_frames)

charge_model = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
calculator = PMEPotential(atomic_smearing=1.1)
optimizer = torch.optim.Adam(charge_model.parameters(), lr=1e-2)

for epoch in range(2):
    for i, (positions, features) in enumerate(frames):
        positions.requires_grad_(True)
        charges = charge_model(features)
        charges = charges - charges.mean()
        energy = calculator(positions, charges, cell)
        forces = -torch.autograd.grad(energy, positions, create_graph=True)[0]
        loss = (energy - reference_energy[i]) ** 2 + 1e-3 * (forces ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
