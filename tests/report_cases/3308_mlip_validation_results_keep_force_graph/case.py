"""Training a pair-potential neural network on energies and forces of random Lennard-Jones clusters;
validation keeps per-batch predictions for the epoch metrics."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def lj_reference(pos):
    n = pos.size(1)
    iu = torch.triu_indices(n, n, 1)
    r = (pos[:, iu[0]] - pos[:, iu[1]]).pow(2).sum(-1).sqrt()
    energy = (4 * ((1 / r) ** 12 - (1 / r) ** 6)).sum(-1)
    forces = -torch.autograd.grad(energy.sum(), pos)[0]
    return energy.detach(), forces.detach()


def make_batch(bs=8, n_atoms=6):
    pos = (torch.arange(n_atoms).view(1, -1, 1) * 1.1 + 0.2 * torch.rand(bs, n_atoms, 3)).requires_grad_(True)
    e, f = lj_reference(pos)
    return {"positions": pos.detach(), "energy": e, "forces": f}


class PairPotential(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, 1))

    def forward(self, positions):
        n = positions.size(1)
        iu = torch.triu_indices(n, n, 1)
        pair_r = (positions[:, iu[0]] - positions[:, iu[1]]).pow(2).sum(-1, keepdim=True).sqrt()
        return self.phi(1.0 / pair_r).sum((-1, -2))


class Atomwise(nn.Module):
    """Energy model + forces as the negative gradient of the energy."""

    def __init__(self, representation, create_graph=True):
        super().__init__()
        self.representation = representation
        self.create_graph = create_graph

    def forward(self, batch):
        positions = batch["positions"].requires_grad_(True)
        energy = self.representation(positions)
        forces = -torch.autograd.grad(energy.sum(), positions, create_graph=self.create_graph)[0]
        return {"energy": energy, "forces": forces}


class Trainer:
    def __init__(self, model, rho_energy=0.1, rho_forces=0.9, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.rho_energy, self.rho_forces = rho_energy, rho_forces
        self.val_results = []

    def loss_fn(self, result, batch):
        return (self.rho_energy * (result["energy"] - batch["energy"]).pow(2).mean()
                + self.rho_forces * (result["forces"] - batch["forces"]).pow(2).mean())

    def train_epoch(self, batches):
        self.model.train()
        for batch in batches:
            self.optimizer.zero_grad()
            loss = self.loss_fn(self.model(batch), batch)
            loss.backward()
            self.optimizer.step()

    def validate(self, batches):
        self.model.eval()
        epoch_results = []
        for batch in batches:
            result = self.model(batch)
            epoch_results.append(result)
        self.val_results.append(epoch_results)
        mae_f = torch.stack([(r["forces"] - b["forces"]).abs().mean() for r, b in zip(epoch_results, batches)])
        return mae_f.mean().item()


if __name__ == "__main__":
    train_set = [make_batch() for _ in range(6)]
    val_set = [make_batch() for _ in range(4)]
    trainer = Trainer(Atomwise(PairPotential()))
    for epoch in range(4):
        trainer.train_epoch(train_set)
        print(f"epoch {epoch}: val force MAE {trainer.validate(val_set):.4f}")
