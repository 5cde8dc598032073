"""Minimal deep-equilibrium (DEQ) layer.  The forward pass finds the fixed point
z* = tanh(z* W + x U) without tracking gradients; the backward pass uses the
implicit function theorem, solving u = g + J^T u by fixed-point iteration with
vector-Jacobian products taken from a small graph rebuilt at z*."""
import torch


class ImplicitSolve(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, W, U, n_iter=30):
        with torch.no_grad():
            z = torch.zeros(x.size(0), W.size(0))
            for _ in range(n_iter):
                z = torch.tanh(z @ W + x @ U)
        with torch.enable_grad():                       # one differentiable application at the fixed point
            z_ = z.detach().requires_grad_()
            x_, W_, U_ = x.detach().requires_grad_(), W.detach().requires_grad_(), U.detach().requires_grad_()
            f = torch.tanh(z_ @ W_ + x_ @ U_)
        ctx.save_for_backward(f, z_, x_, W_, U_)
        ctx.n_iter = n_iter
        return z

    @staticmethod
    def backward(ctx, grad_z):
        f, z_, x_, W_, U_ = ctx.saved_tensors
        u = grad_z
        for _ in range(ctx.n_iter):                     # u = g + J^T u
            u = grad_z + torch.autograd.grad(f, z_, u, retain_graph=True)[0]
        gx, gW, gU = torch.autograd.grad(f, (x_, W_, U_), u, retain_graph=False)
        return gx, gW, gU, None


class DEQBlock(torch.nn.Module):
    def __init__(self, d_in, d_hidden):
        super().__init__()
        self.W = torch.nn.Parameter(torch.randn(d_hidden, d_hidden) * 0.3 / d_hidden ** 0.5)
        self.U = torch.nn.Parameter(torch.randn(d_in, d_hidden) / d_in ** 0.5)

    def forward(self, x):
        return ImplicitSolve.apply(x, self.W, self.U)
