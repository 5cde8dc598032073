"""Inverse 1-D reaction-diffusion problem solved with a tiny DeepXDE-like PINN.

The unknown flux coefficient C1 appears only in the Neumann boundary
condition at x = 0 and is trained together with the network.
"""
import argparse
from functools import wraps

import torch
import torch.nn as nn

L = 1.0
D = torch.tensor(2.0)             # measured diffusivity
C1 = torch.tensor(0.1, requires_grad=True)   # unknown, to be identified


def npfunc_range_autocache(func):
    """Evaluate func on X[beg:end] every call.

    The BC function closes over the trainable C1, so its value (and its graph)
    changes every iteration and must not be memoised.
    """

    @wraps(func)
    def wrapper_nocache(X, beg, end):
        return func(X[beg:end])

    return wrapper_nocache


class NeumannBC:
    def __init__(self, func, on_boundary):
        self.func = npfunc_range_autocache(func)
        self.on_boundary = on_boundary

    def collocation_points(self, X):
        return X[self.on_boundary(X)]

    def error(self, X, inputs, outputs, beg, end):
        dydx = torch.autograd.grad(outputs, inputs, torch.ones_like(outputs), create_graph=True)[0]
        dydn = -dydx[beg:end]            # outward normal at x = 0 points to -x
        values = self.func(X, beg, end)
        return dydn - values


def pde(x, y):
    dy_x = torch.autograd.grad(y, x, torch.ones_like(y), create_graph=True)[0]
    dy_xx = torch.autograd.grad(dy_x, x, torch.ones_like(dy_x), create_graph=True)[0]
    return dy_xx - y / L ** 2


class FNN(nn.Module):
    def __init__(self, layers):
        super().__init__()
        mods = []
        for a, b in zip(layers[:-2], layers[1:-1]):
            mods += [nn.Linear(a, b), nn.Tanh()]
        mods.append(nn.Linear(layers[-2], layers[-1]))
        self.net = nn.Sequential(*mods)

    def forward(self, x):
        return self.net(x)


class Model:
    def __init__(self, net, bc, domain_pts, anchor_x, anchor_y):
        self.net, self.bc = net, bc
        self.bc_pts = bc.collocation_points(domain_pts)
        self.train_x = torch.cat([self.bc_pts, domain_pts])     # fixed training set
        self.anchor_x, self.anchor_y = anchor_x, anchor_y

    def compile(self, lr, external_trainable_variables):
        params = list(self.net.parameters()) + list(external_trainable_variables)
        self.opt = torch.optim.Adam(params, lr=lr)

    def losses(self):
        inputs = self.train_x.clone().requires_grad_(True)
        outputs = self.net(inputs)
        n_bc = len(self.bc_pts)
        f = pde(inputs, outputs)[n_bc:]
        bc_err = self.bc.error(self.train_x, inputs, outputs, 0, n_bc)
        data_err = self.net(self.anchor_x) - self.anchor_y
        return [f.pow(2).mean(), bc_err.pow(2).mean(), data_err.pow(2).mean()]

    def train(self, iterations, display_every):
        for it in range(iterations):
            loss_pde, loss_bc, loss_data = self.losses()
            total_loss = loss_pde + loss_bc + loss_data
            self.opt.zero_grad()
            total_loss.backward()
            self.opt.step()
            if it % display_every == 0:
                print(f"it {it} pde {loss_pde.item():.2e} bc {loss_bc.item():.2e} "
                      f"data {loss_data.item():.2e} C1 {C1.item():.4f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()
    torch.manual_seed(0)

    domain = torch.linspace(0, L, 64).unsqueeze(1)
    boundary = lambda x: torch.isclose(x[:, 0], torch.tensor(0.0))
    bc = NeumannBC(lambda x: C1 / (2 * D), boundary)
    # synthetic "measurements" of the concentration profile
    anchor_x = torch.linspace(0.1, 0.9, 9).unsqueeze(1)
    anchor_y = torch.cosh((L - anchor_x) / L) * 0.3

    net = FNN([1, 32, 32, 1])
    model = Model(net, bc, domain, anchor_x, anchor_y)
    model.compile(lr=args.lr, external_trainable_variables=[C1])
    model.train(iterations=args.iterations, display_every=50)


if __name__ == "__main__":
    main()
