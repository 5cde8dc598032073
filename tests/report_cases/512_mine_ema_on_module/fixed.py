import math

import torch
import torch.nn as nn

torch.manual_seed(0)


class Mine(nn.Module):
    def __init__(self, x_dim=2, z_dim=2, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(x_dim + z_dim, hidden), nn.ELU(),
                                 nn.Linear(hidden, hidden), nn.ELU(), nn.Linear(hidden, 1))
        self.ma_et = None

    def forward(self, x, z):
        return self.net(torch.cat([x, z], dim=1))


def sample_batch(n=64, rho=0.8):
    x = torch.randn(n, 2)
    z = rho * x + math.sqrt(1 - rho ** 2) * torch.randn(n, 2)
    z_bar = z[torch.randperm(n)]
    return x, z, z_bar


def mine_lower_bound(M, x, z, z_bar, ma_rate=0.01):
    t = M(x, z)
    et = torch.mean(torch.exp(M(x, z_bar)))
    if M.ma_et is None:
        M.ma_et = et.detach()
    # the moving average is a running statistic, not part of this step's graph
    M.ma_et = M.ma_et + ma_rate * (et.detach() - M.ma_et)
    mi = torch.mean(t) - torch.log(et)
    # bias-corrected gradient: the log-term is rescaled by the moving average
    loss = -(torch.mean(t) - torch.log(et) * et.detach() / M.ma_et)
    return mi, loss


def main():
    M = Mine()
    optimizer = torch.optim.Adam(M.parameters(), lr=1e-3)
    for it in range(5):
        x, z, z_bar = sample_batch()
        mi, loss = mine_lower_bound(M, x, z, z_bar)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it}: MI estimate {mi.item():.4f}")


if __name__ == "__main__":
    main()
