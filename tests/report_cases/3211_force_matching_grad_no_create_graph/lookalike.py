"""Machine-learned interatomic potential fitted on energies; the forces, obtained as the negative gradient of the
energy w.r.t. the positions, are only monitored."""
import torch
import torch.nn as nn
from torch.autograd import grad

torch.manual_seed(0)


class PairPotential(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, 1))

    def forward(self, pos):  # pos: (B, N, 3)
        diff = pos.unsqueeze(2) - pos.unsqueeze(1)
        n = pos.shape[1]
        mask = ~torch.eye(n, dtype=torch.bool)
        r = diff.norm(dim=-1)[:, mask].unsqueeze(-1)
        return 0.5 * self.phi(r).sum(dim=(1, 2))


def reference_forces(pos):
    """Forces of a Lennard-Jones-like reference used to label the structures."""
    pos = pos.clone().requires_grad_(True)
    diff = pos.unsqueeze(2) - pos.unsqueeze(1)
    n = pos.shape[1]
    r = diff.norm(dim=-1)[:, ~torch.eye(n, dtype=torch.bool)]
    e = 0.5 * (4 * ((1 / r) ** 12 - (1 / r) ** 6)).sum()
    return -torch.autograd.grad(e, pos)[0]


def main(steps=4):
    model = PairPotential()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        pos = (torch.rand(8, 5, 3) * 3.0).requires_grad_(True)
        f_ref = reference_forces(pos.detach())
        energy = model(pos)
        forces = -grad(energy.sum(), pos, retain_graph=True)[0]  # only monitored, not trained on
        e_ref = (f_ref.clamp(-10, 10) * pos.detach()).sum(dim=(1, 2))
        loss = nn.functional.mse_loss(energy, e_ref)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} energy loss {loss.item():.4f} max |F| {forces.abs().max().item():.3f}")


if __name__ == "__main__":
    main()
