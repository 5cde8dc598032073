import torch
import torch.nn as nn

torch.manual_seed(0)


def graph_size(t):
    if not torch.is_tensor(t) or t.grad_fn is None:
        return 0
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


G = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
D = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
opt_G = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.5, 0.9))
opt_D = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.5, 0.9))
LAMBDA, n_critic = 10.0, 3


def gradient_penalty(D, real, fake):
    alpha = torch.rand(real.size(0), 1)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = D(interp)
    grads = torch.autograd.grad(outputs=out, inputs=interp, grad_outputs=torch.ones_like(out),
                                create_graph=True, retain_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


def sample_real(n=64):
    theta = torch.rand(n) * 6.283
    return torch.stack([torch.cos(theta), torch.sin(theta)], 1) * 2


for epoch in range(2):
    stats = {"d_loss": 0.0, "gp": 0.0, "g_loss": 0.0}
    for it in range(4):
        for _ in range(n_critic):
            real, fake = sample_real(), G(torch.randn(64, 8)).detach()
            gp = gradient_penalty(D, real, fake)
            d_loss = D(fake).mean() - D(real).mean() + LAMBDA * gp
            opt_D.zero_grad()
            d_loss.backward()
            opt_D.step()
            stats["d_loss"] += d_loss.item()
            stats["gp"] += gp.item()
        g_loss = -D(G(torch.randn(64, 8))).mean()
        opt_G.zero_grad()
        g_loss.backward()
        opt_G.step()
        stats["g_loss"] += g_loss.item()
        print(epoch, it, "graph nodes held by stats:", sum(graph_size(v) for v in stats.values()))
    print({k: float(v) / 4 for k, v in stats.items()})
