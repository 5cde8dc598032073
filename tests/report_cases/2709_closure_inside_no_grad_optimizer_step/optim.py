import torch


class Lookahead:
    """Third-party style optimizer wrapper: k fast steps of the inner optimizer, then a slow-weight pull."""

    def __init__(self, base_optimizer, k=3, alpha=0.5):
        self.base_optimizer, self.k, self.alpha = base_optimizer, k, alpha
        self.param_groups = base_optimizer.param_groups
        self.slow = [[p.detach().clone() for p in g["params"]] for g in self.param_groups]
        self.counter = 0

    def zero_grad(self, set_to_none=True):
        self.base_optimizer.zero_grad(set_to_none=set_to_none)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            loss = closure()
        self.base_optimizer.step()
        self.counter += 1
        if self.counter % self.k == 0:
            for group, slow in zip(self.param_groups, self.slow):
                for p, s in zip(group["params"], slow):
                    s.add_(p - s, alpha=self.alpha)
                    p.copy_(s)
        return loss
