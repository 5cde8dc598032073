"""Fit a tensor-train (TT) decomposition to a 2D picture by gradient descent.

Modelled on tntorch's `optimize()` helper: the TT cores are leaf tensors,
the loss is the relative reconstruction error, and a loss history is kept
to decide convergence.
"""
import argparse
import time

import torch


class TTTensor:
    """Minimal tensor-train container with trainable cores."""

    def __init__(self, shape, rank):
        ranks = [1] + [rank] * (len(shape) - 1) + [1]
        self.cores = [
            (torch.randn(ranks[i], shape[i], ranks[i + 1]) / rank ** 0.5).requires_grad_()
            for i in range(len(shape))
        ]

    def full(self):
        out = self.cores[0]
        for core in self.cores[1:]:
            out = torch.einsum("aib,bjc->aijc", out, core)
            out = out.reshape(1, -1, core.shape[-1])
        return out.reshape([c.shape[1] for c in self.cores])


def relative_error(gt, approx):
    return torch.norm(gt - approx) / torch.norm(gt)


def optimize(tensors, loss_function, optimizer=torch.optim.Adam, tol=1e-4, max_iter=200,
             print_freq=50, verbose=True):
    """Gradient descent on the cores of `tensors` until the loss stalls."""
    params = []
    for t in tensors:
        params.extend(t.cores)
    optimizer = optimizer(params, lr=1e-2)
    loss_history = []
    start = time.time()
    iter = 0
    while True:
        optimizer.zero_grad()
        loss = loss_function(*tensors)
        loss.backward()
        optimizer.step()
        loss_history.append(loss)
        if len(loss_history) >= 2:
            delta = abs(float(loss_history[-2]) - float(loss_history[-1]))
        else:
            delta = float("inf")
        if verbose and iter % print_freq == 0:
            print(f"iter: {iter: <7} | loss: {float(loss_history[-1]):.6f} | "
                  f"total time: {time.time() - start:9.4f}")
        iter += 1
        if delta < tol or iter >= max_iter:
            break
    return loss_history


def make_picture(n):
    xs = torch.linspace(-1, 1, n)
    X, Y = torch.meshgrid(xs, xs, indexing="ij")
    return torch.sin(3 * X) * torch.cos(2 * Y) + 0.05 * torch.randn(n, n)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--rank", type=int, default=6)
    parser.add_argument("--max_iter", type=int, default=150)
    args = parser.parse_args()

    torch.manual_seed(0)
    gt = make_picture(args.size)
    t = TTTensor(gt.shape, args.rank)

    def loss(t):
        return relative_error(gt, t.full())

    history = optimize([t], loss, max_iter=args.max_iter)
    print("final relative error:", float(history[-1]))


if __name__ == "__main__":
    main()
