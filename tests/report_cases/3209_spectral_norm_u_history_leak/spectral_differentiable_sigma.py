import torch
import torch.nn as nn
import torch.nn.functional as F


class SpectralNorm(nn.Module):
    """Wraps a layer and rescales its weight by the largest singular value, estimated with one
    power-iteration step per forward; the left singular vector u is cached between calls."""

    def __init__(self, module, n_power_iterations=1, eps=1e-12):
        super().__init__()
        self.module = module
        self.n_power_iterations = n_power_iterations
        self.eps = eps
        w = module.weight
        del module._parameters["weight"]
        module.weight_orig = nn.Parameter(w.data)
        self.register_buffer("u", F.normalize(torch.randn(w.size(0)), dim=0, eps=eps))

    def compute_weight(self):
        weight = self.module.weight_orig
        weight_mat = weight.view(weight.size(0), -1)
        with torch.no_grad():
            u = self.u
            for _ in range(self.n_power_iterations):
                v = F.normalize(torch.matmul(weight_mat.t(), u), dim=0, eps=self.eps)
                u = F.normalize(torch.matmul(weight_mat, v), dim=0, eps=self.eps)
            self.u = u
        # u and v are constants here; sigma itself stays differentiable w.r.t. the weight
        sigma = torch.dot(u, torch.matmul(weight_mat, v))
        return weight / sigma

    def forward(self, *args):
        self.module.weight = self.compute_weight()
        return self.module(*args)


def graph_depth(t):
    """Number of autograd nodes reachable from t (0 for a tensor without history)."""
    seen, stack = set(), [t.grad_fn] if t.grad_fn is not None else []
    while stack:
        fn = stack.pop()
        if fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions if f is not None)
    return len(seen)
