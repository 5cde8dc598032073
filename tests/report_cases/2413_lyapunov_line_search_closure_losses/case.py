"""Train a neural Lyapunov function for a stable 2-D linear system with a
steepest-descent line-search optimizer (train_lyapunov-style script)."""
import argparse

import torch

from lyapunov import LyapunovNet, lyapunov_derivative_loss, lyapunov_positivity_loss
from optim_utils import LineSearchSD


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=15)
    parser.add_argument("--samples", type=int, default=256)
    parser.add_argument("--lr", type=float, default=0.5)
    args = parser.parse_args()
    torch.manual_seed(0)

    A = torch.tensor([[-0.5, 1.0], [-1.0, -0.5]])
    dynamics = lambda x: x @ A.t()
    x_equilibrium = torch.zeros(2)
    lyapunov = LyapunovNet(2)
    optimizer = LineSearchSD(lyapunov.parameters(), lr=args.lr)
    x_samples = torch.rand(args.samples, 2) * 4 - 2

    losses = []

    def closure(compute_grad=True):
        if compute_grad:
            optimizer.zero_grad()
        V = lyapunov(x_samples, x_equilibrium)
        positivity = lyapunov_positivity_loss(V, x_samples, x_equilibrium)
        derivative = lyapunov_derivative_loss(lyapunov, dynamics, x_samples, x_equilibrium)
        loss = positivity + derivative
        if compute_grad:
            loss.backward()
        losses.append(loss)
        return loss

    for it in range(args.iterations):
        loss = optimizer.step(closure)
        print(f"iter {it} loss {loss.item():.5f} closure calls so far {len(losses)}")


if __name__ == "__main__":
    main()
