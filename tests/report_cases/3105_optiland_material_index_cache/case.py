"""Optimising a thick singlet with the torch backend (optiland-style): curvatures and a model-glass
index are variables; the merit function targets the focal length at three wavelengths."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class IdealMaterial(nn.Module):
    """Model glass described by (n_d, V_d); refractive indices are cached per wavelength."""

    def __init__(self, n_d=1.5168, v_d=64.2):
        super().__init__()
        self.n_d = nn.Parameter(torch.tensor(n_d))
        self.v_d = v_d
        self._n_cache = {}

    def n(self, wavelength_um):
        if wavelength_um in self._n_cache:
            return self._n_cache[wavelength_um]
        dispersion = (self.n_d - 1) / self.v_d
        value = self.n_d + dispersion * (0.5876 / wavelength_um - 1.0) * 1.6
        self._n_cache[wavelength_um] = value
        return value


class Singlet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Parameter(torch.tensor(0.02))
        self.c2 = nn.Parameter(torch.tensor(-0.01))
        self.thickness = 5.0
        self.material = IdealMaterial()

    def efl(self, wavelength_um):
        n = self.material.n(wavelength_um)
        power = (n - 1) * (self.c1 - self.c2 + (n - 1) * self.thickness * self.c1 * self.c2 / n)
        return 1.0 / power


def merit(lens, target_efl=50.0, wavelengths=(0.4861, 0.5876, 0.6563)):
    efls = torch.stack([lens.efl(w) for w in wavelengths])
    return ((efls - target_efl) ** 2).mean() + 10.0 * (efls[0] - efls[-1]) ** 2


class TorchAdamOptimizer:
    def __init__(self, lens, lr=1e-3):
        self.lens = lens
        self.optimizer = torch.optim.Adam(lens.parameters(), lr=lr)

    def optimize(self, maxiter=5):
        for i in range(maxiter):
            self.optimizer.zero_grad()
            loss = merit(self.lens)
            loss.backward()
            self.optimizer.step()
            with torch.no_grad():
                self.lens.material.n_d.clamp_(1.4, 2.0)
            print(f"iter {i} merit {loss.item():.4f} efl_d {self.lens.efl(0.5876).item():.2f}")


if __name__ == "__main__":
    TorchAdamOptimizer(Singlet()).optimize()
