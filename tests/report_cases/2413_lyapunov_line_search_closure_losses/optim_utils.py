import torch


class LineSearchSD(torch.optim.Optimizer):
    """Steepest descent with Armijo backtracking.  The closure is called with
    compute_grad=True once per step and with compute_grad=False for every trial
    step size."""

    def __init__(self, params, lr=1.0, beta=0.5, c=1e-4, max_trials=8):
        super().__init__(params, dict(lr=lr, beta=beta, c=c, max_trials=max_trials))

    @torch.no_grad()
    def step(self, closure):
        with torch.enable_grad():
            loss0 = closure(compute_grad=True)
        group = self.param_groups[0]
        params = [p for p in group["params"] if p.grad is not None]
        grads = [p.grad.clone() for p in params]
        gnorm2 = sum((g * g).sum() for g in grads)
        originals = [p.clone() for p in params]
        t = group["lr"]
        for _ in range(group["max_trials"]):
            for p, p0, g in zip(params, originals, grads):
                p.copy_(p0 - t * g)
            with torch.enable_grad():
                trial = closure(compute_grad=False)
            if trial <= loss0 - group["c"] * t * gnorm2:
                break
            t *= group["beta"]
        return loss0
