"""Fitting a small MACE-style interatomic potential to reference energies of random clusters; the
optimizer uses explicit parameter groups (different weight decay per block)."""
import torch
from model import MACE
from tools_fixed import get_params_options

torch.manual_seed(0)


def make_structure(n_atoms=6, cutoff=3.0):
    positions = torch.rand(n_atoms, 3) * 3.0
    node_attrs = torch.nn.functional.one_hot(torch.randint(0, 3, (n_atoms,)), 3).float()
    pairs = [(i, j) for i in range(n_atoms) for j in range(n_atoms)
             if i != j and (positions[i] - positions[j]).norm() < cutoff]
    senders = torch.tensor([p[0] for p in pairs])
    receivers = torch.tensor([p[1] for p in pairs])
    energy = -0.5 * len(pairs) / n_atoms + 0.1 * torch.randn(())
    return node_attrs, positions, senders, receivers, energy


def run_train(epochs=3):
    model = MACE()
    optimizer = torch.optim.Adam(**get_params_options(model))
    a0 = model.pair_repulsion.a.detach().clone()
    dataset = [make_structure() for _ in range(6)]
    for epoch in range(epochs):
        for node_attrs, positions, senders, receivers, energy_ref in dataset:
            energy = model(node_attrs, positions, senders, receivers)
            loss = (energy - energy_ref) ** 2
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    print("pair repulsion amplitude change:", (model.pair_repulsion.a - a0).abs().item())


if __name__ == "__main__":
    run_train()
