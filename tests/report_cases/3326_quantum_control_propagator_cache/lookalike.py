"""GRAPE-style optimal control of a single qubit: piecewise-constant drive amplitudes are optimised
so that the Schroedinger evolution implements an X gate. Propagators are cached per (t, dt) and
per parameter version, since both basis states are evolved with the same controls."""
import math
import torch
import torch.nn as nn

torch.manual_seed(0)

OPTIONS = {"n_bins": 8, "T": 3.0, "omega": 1.0, "lr": 0.1, "iters": 25}

SX = torch.tensor([[0, 1], [1, 0]], dtype=torch.complex64)
SZ = torch.tensor([[1, 0], [0, -1]], dtype=torch.complex64)


class PiecewiseHamiltonian(nn.Module):
    def __init__(self, n_bins, T, omega):
        super().__init__()
        self.T, self.n_bins = T, n_bins
        self.amplitudes = nn.Parameter(0.3 * torch.randn(n_bins))
        self.H0 = 0.5 * omega * SZ

    def forward(self, t):
        k = min(int(t / self.T * self.n_bins), self.n_bins - 1)
        return self.H0 + 0.5 * self.amplitudes[k].to(torch.complex64) * SX


class Propagator:
    def __init__(self, H: PiecewiseHamiltonian):
        self.H = H
        self._cache = {}
        self._cache_state = None

    def propagator(self, t, dt):
        state = self.H.amplitudes._version
        if state != self._cache_state:
            self._cache, self._cache_state = {}, state
        key = (round(t, 9), round(dt, 9))
        if key not in self._cache:
            self._cache[key] = torch.linalg.matrix_exp(-1j * self.H(t) * dt)
        return self._cache[key]

    def run(self, psi0):
        dt = self.H.T / self.H.n_bins
        psi = psi0
        for k in range(self.H.n_bins):
            psi = self.propagator(k * dt, dt) @ psi
        return psi


def gate_infidelity(solver):
    basis = torch.eye(2, dtype=torch.complex64)
    target = SX @ basis
    fids = []
    for i in range(2):
        psi_t = solver.run(basis[:, i])
        fids.append((target[:, i].conj() @ psi_t).abs() ** 2)
    return 1 - torch.stack(fids).mean()


def optimise(opts):
    H = PiecewiseHamiltonian(opts["n_bins"], opts["T"], opts["omega"])
    solver = Propagator(H)
    optimizer = torch.optim.Adam(H.parameters(), lr=opts["lr"])
    print(f"initial infidelity {gate_infidelity(solver).item():.4f}")
    for it in range(opts["iters"]):
        optimizer.zero_grad()
        loss = gate_infidelity(solver)
        loss.backward()
        optimizer.step()
        if it % 5 == 0:
            print(f"iter {it}: infidelity={loss.item():.4f}")
    return H


if __name__ == "__main__":
    optimise(OPTIONS)
