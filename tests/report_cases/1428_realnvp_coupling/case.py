import torch

from flows import SequenceFlow, standard_normal_logprob


def two_moons(n, noise=0.05, gen=None):
    t = torch.rand(n, generator=gen) * torch.pi
    upper = torch.rand(n, generator=gen) < 0.5
    x = torch.where(upper, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))
    return torch.stack([x, y], 1) + noise * torch.randn(n, 2, generator=gen)


def train_flow(flow, n_iter=4, batch_size=64, lr=5e-4):
    optimizer = torch.optim.Adam(flow.parameters(), lr=lr)
    gen = torch.Generator().manual_seed(0)
    for it in range(n_iter):
        optimizer.zero_grad()
        x = two_moons(batch_size, gen=gen)
        z, log_jac = flow(x)
        flow_loss = -(standard_normal_logprob(z) + log_jac).mean()
        flow_loss.backward()
        optimizer.step()
        print(f"iter {it}: nll {flow_loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train_flow(SequenceFlow(dim=2, hidden=32, n_blocks=3))
