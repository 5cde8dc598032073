"""Message-passing network for molecular property regression on padded batches
of small molecular graphs (atom types + bond adjacency).  Padding atoms are
zeroed after every layer so they never send messages."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_ATOM_TYPES, MAX_ATOMS, HID = 9, 12, 32


class MPNLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.msg = nn.Linear(dim, dim)
        self.upd = nn.Linear(2 * dim, dim)

    def forward(self, h, adj, atom_mask):
        m = torch.bmm(adj, self.msg(h))                       # sum of neighbour messages
        h = F.relu(self.upd(torch.cat([h, m], -1)))
        h[~atom_mask] = 0.0                                    # silence padding atoms
        return h


class MolRegressor(nn.Module):
    def __init__(self, depth=3):
        super().__init__()
        self.embed = nn.Embedding(N_ATOM_TYPES, HID)
        self.layers = nn.ModuleList([MPNLayer(HID) for _ in range(depth)])
        self.readout = nn.Sequential(nn.Linear(HID, HID), nn.ReLU(), nn.Linear(HID, 1))

    def forward(self, atoms, adj, atom_mask):
        h = self.embed(atoms) * atom_mask.unsqueeze(-1)
        for layer in self.layers:
            h = layer(h, adj, atom_mask)
        mol = h.sum(1) / atom_mask.sum(1, keepdim=True)      # mean over real atoms
        return self.readout(mol).squeeze(-1)


def random_molecules(b=16):
    n_atoms = torch.randint(4, MAX_ATOMS + 1, (b,))
    atom_mask = torch.arange(MAX_ATOMS)[None, :] < n_atoms[:, None]
    atoms = torch.randint(0, N_ATOM_TYPES, (b, MAX_ATOMS)) * atom_mask
    adj = torch.zeros(b, MAX_ATOMS, MAX_ATOMS)
    for i in range(b):
        for j in range(1, int(n_atoms[i])):                   # a chain plus random extra bonds
            k = int(torch.randint(0, j, (1,)))
            adj[i, j, k] = adj[i, k, j] = 1.0
    target = (atoms == 3).float().sum(1) - 0.5 * (atoms == 7).float().sum(1) + 0.1 * adj.sum((1, 2))
    return atoms, adj, atom_mask, target


def main():
    model = MolRegressor()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(6):
        atoms, adj, atom_mask, target = random_molecules()
        pred = model(atoms, adj, atom_mask)
        loss = F.mse_loss(pred, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} mse {loss.item():.3f}")


if __name__ == "__main__":
    main()
