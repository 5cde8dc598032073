import torch
import torch.nn as nn


class SineRegressor(nn.Module):
    def __init__(self, hidden=40):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(1, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x)


def sample_task(n_support=10, n_query=10, gen=None):
    amp = torch.empty(1).uniform_(0.1, 5.0, generator=gen)
    phase = torch.empty(1).uniform_(0.0, 3.14, generator=gen)
    xs = torch.empty(n_support, 1).uniform_(-5, 5, generator=gen)
    xq = torch.empty(n_query, 1).uniform_(-5, 5, generator=gen)
    return (xs, amp * torch.sin(xs + phase)), (xq, amp * torch.sin(xq + phase))
