"""Char-level MLP with Sophia-style preconditioning (GNB diagonal Hessian estimate)."""
from argparse import Namespace

import torch
import torch.nn as nn
import torch.nn.functional as F


class HessianEMA:
    """Keeps an EMA of the Gauss-Newton-Bartlett diagonal and clips updates with it."""

    def __init__(self, params, beta=0.99, rho=0.04):
        self.params = [p for p in params if p.requires_grad]
        self.beta, self.rho = beta, rho
        self.h = [torch.zeros_like(p) for p in self.params]

    @torch.no_grad()
    def update(self, bs):
        for p, h in zip(self.params, self.h):
            if p.grad is not None:
                h.mul_(self.beta).addcmul_(p.grad, p.grad, value=(1 - self.beta) * bs)

    @torch.no_grad()
    def precondition_(self):
        for p, h in zip(self.params, self.h):
            if p.grad is not None:
                p.grad.div_(self.rho * h + 1e-12).clamp_(-1.0, 1.0)


def get_batch(args):
    x = torch.randint(0, args.vocab, (args.batch_size, args.block))
    return x, (x.sum(1) % args.vocab)


def main(args):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Embedding(args.vocab, 8), nn.Flatten(), nn.Linear(8 * args.block, 32),
                          nn.GELU(), nn.Linear(32, args.vocab))
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    hess = HessianEMA(model.parameters())
    for it in range(args.max_iters):
        X, Y = get_batch(args)
        logits = model(X)
        loss = F.cross_entropy(logits, Y)
        loss.backward()
        if it >= args.hess_interval:
            hess.precondition_()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if it % args.hess_interval == args.hess_interval - 1:
            # Gauss-Newton-Bartlett: labels sampled from the model's own predictions
            y_sample = torch.distributions.Categorical(logits=logits).sample()
            loss_sampled = F.cross_entropy(logits, y_sample)
            loss_sampled.backward()
            hess.update(args.batch_size)
            optimizer.zero_grad(set_to_none=True)
        print(it, round(loss.item(), 4))


if __name__ == "__main__":
    main(Namespace(vocab=11, block=4, batch_size=16, lr=3e-3, max_iters=6, hess_interval=2))
