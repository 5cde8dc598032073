"""Adversarial sampling for an ensemble of neural interatomic potentials: optimise a displacement
that maximises the ensemble's force uncertainty, weighted by the Boltzmann probability of the
displaced geometry."""
import torch
import torch.nn as nn

torch.manual_seed(0)

ATTACK = dict(n_models=3, n_atoms=5, kT=1.0, lr=0.01, steps=10, max_disp=0.3)


class PairNet(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, pos):
        n = pos.size(0)
        iu = torch.triu_indices(n, n, 1)
        r = (pos[iu[0]] - pos[iu[1]]).pow(2).sum(-1, keepdim=True).sqrt()
        return self.net(r).sum()


class Ensemble(nn.Module):
    def __init__(self, n_models):
        super().__init__()
        self.models = nn.ModuleList(PairNet() for _ in range(n_models))

    def forward(self, pos):
        energies, forces = [], []
        for m in self.models:
            e = m(pos)
            energies.append(e)
            forces.append(-torch.autograd.grad(e, pos)[0])
        return torch.stack(energies), torch.stack(forces)


class AdversarialAttack:
    def __init__(self, ensemble, cfg):
        self.ensemble, self.cfg = ensemble, cfg
        for p in ensemble.parameters():
            p.requires_grad_(False)

    def loss_fn(self, energies, forces):
        uncertainty = forces.var(0).sum()
        boltzmann = torch.exp(-energies.mean() / self.cfg["kT"])
        return -(uncertainty * boltzmann)

    def attack(self, x0):
        delta = torch.zeros_like(x0, requires_grad=True)
        optimizer = torch.optim.Adam([delta], lr=self.cfg["lr"])
        for step in range(self.cfg["steps"]):
            pos = x0 + delta
            energies, forces = self.ensemble(pos)
            loss = self.loss_fn(energies, forces)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            with torch.no_grad():
                delta.clamp_(-self.cfg["max_disp"], self.cfg["max_disp"])
        return (x0 + delta).detach(), loss.item()


if __name__ == "__main__":
    ensemble = Ensemble(ATTACK["n_models"])
    x0 = torch.arange(ATTACK["n_atoms"]).float().unsqueeze(-1).repeat(1, 3) * 1.2 + 0.1 * torch.randn(ATTACK["n_atoms"], 3)
    attacked, final = AdversarialAttack(ensemble, ATTACK).attack(x0)
    print("adversarial loss", final, "max displacement", (attacked - x0).abs().max().item())
