"""Sequence model trained in parallel (full-sequence conv); the in-place ring-buffer step
mode is only used afterwards for streaming inference under no_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv1d_step(x, conv_state, conv1d_weight, conv1d_bias=None):
    """x: (B, 1, D); conv_state: (B, KS, D) ring buffer; conv1d_weight: (KS, D)."""
    assert x.shape[1] == 1
    conv_state.copy_(torch.roll(conv_state, shifts=-1, dims=1))
    conv_state[:, -1:, :] = x
    y = torch.sum(conv_state * conv1d_weight, dim=1, keepdim=True)
    if conv1d_bias is not None:
        y = y + conv1d_bias
    return y, conv_state


class CausalConv1d(nn.Module):
    def __init__(self, feature_dim, kernel_size=4):
        super().__init__()
        self.kernel_size = kernel_size
        self.conv = nn.Conv1d(feature_dim, feature_dim, kernel_size, groups=feature_dim,
                              padding=kernel_size - 1)

    def forward(self, x):  # x: (B, S, D)
        y = self.conv(x.transpose(1, 2))[..., : x.size(1)]
        return y.transpose(1, 2)

    def empty_state(self, batch, dim):
        return torch.zeros(batch, self.kernel_size, dim)

    def step(self, x, conv_state):
        weight = self.conv.weight[:, 0, :].transpose(0, 1)  # (KS, D)
        return conv1d_step(x, conv_state, weight, self.conv.bias)


torch.manual_seed(0)


class ConvBlock(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.dim = dim
        self.proj_in = nn.Linear(dim, dim)
        self.conv = CausalConv1d(dim, kernel_size=4)
        self.head = nn.Linear(dim, 1)

    def forward(self, xs):
        return self.head(F.silu(self.conv(self.proj_in(xs))))

    @torch.no_grad()
    def stream(self, xs):
        conv_state = self.conv.empty_state(xs.size(0), self.dim)
        outs = []
        for t in range(xs.size(1)):
            c, conv_state = self.conv.step(self.proj_in(xs[:, t]).unsqueeze(1), conv_state)
            outs.append(self.head(F.silu(c)))
        return torch.cat(outs, dim=1)


def train(epochs=4, batch=8, seq_len=12, dim=16):
    model = ConvBlock(dim)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        xs = torch.randn(batch, seq_len, dim)
        targets = xs[..., :1].cumsum(1) / 4
        loss = F.mse_loss(model(xs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        streamed = model.stream(xs)
        print(epoch, round(loss.item(), 4), round((streamed - model(xs)).abs().max().item(), 6))


if __name__ == "__main__":
    train()
