"""Neural potential-energy model whose forward returns forces = -dE/dx (torch.autograd.grad
inside forward). Trained on forces; validated every epoch."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class ForceField(nn.Module):
    def __init__(self, n_atoms=4, hidden=32):
        super().__init__()
        self.energy = nn.Sequential(nn.Linear(3 * n_atoms, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, pos):
        if not pos.requires_grad:
            pos = pos.clone().requires_grad_(True)
        e = self.energy(pos.flatten(1)).sum()
        forces, = torch.autograd.grad(e, pos, create_graph=self.training)
        return -forces


def make_split(n):
    pos = torch.randn(n, 4, 3)
    return pos, -2.0 * pos  # harmonic reference forces


class Runner:
    def __init__(self):
        self.model = ForceField()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-2)
        self.train_set, self.val_set = make_split(32), make_split(8)

    def train_epoch(self):
        self.model.train()
        pos, f_ref = self.train_set
        for i in range(0, 32, 8):
            loss = ((self.model(pos[i:i + 8]) - f_ref[i:i + 8]) ** 2).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def validate(self):
        self.model.eval()
        pos, f_ref = self.val_set
        return ((self.model(pos) - f_ref) ** 2).mean().item()

    def fit(self, epochs=3):
        for epoch in range(epochs):
            train_loss = self.train_epoch()
            val_loss = self.validate()
            print(f"epoch {epoch} train {train_loss:.4f} val {val_loss:.4f}")


if __name__ == "__main__":
    Runner().fit()
