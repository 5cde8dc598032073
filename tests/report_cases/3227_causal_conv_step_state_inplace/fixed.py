"""Online sequence model (conv + gated recurrent cell) trained in recurrent step mode:
the model is unrolled one token at a time, as it will run when deployed on a stream."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv1d_step(x, conv_state, conv1d_weight, conv1d_bias=None):
    """x: (B, 1, D); conv_state: (B, KS, D) ring buffer; conv1d_weight: (KS, D)."""
    assert x.shape[1] == 1
    # build a new state instead of writing into the one the previous step used
    new_conv_state = torch.cat([conv_state[:, 1:, :], x], dim=1)
    y = torch.sum(new_conv_state * conv1d_weight, dim=1, keepdim=True)
    if conv1d_bias is not None:
        y = y + conv1d_bias
    return y, new_conv_state


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


class RecurrentBlock(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.dim = dim
        self.proj_in = nn.Linear(dim, dim)
        self.conv = CausalConv1d(dim, kernel_size=4)
        self.cell = nn.GRUCell(dim, dim)
        self.head = nn.Linear(dim, 1)

    def init_state(self, batch):
        return self.conv.empty_state(batch, self.dim), torch.zeros(batch, self.dim)

    def step(self, x_t, state):
        conv_state, h = state
        u = self.proj_in(x_t).unsqueeze(1)
        c, conv_state = self.conv.step(u, conv_state)
        h = self.cell(F.silu(c.squeeze(1)), h)
        return self.head(h), (conv_state, h)


def train(epochs=4, batch=8, seq_len=12, dim=16):
    model = RecurrentBlock(dim)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        xs = torch.randn(batch, seq_len, dim)
        targets = xs.mean(-1, keepdim=True).cumsum(1)
        state = model.init_state(batch)
        loss = 0.0
        for t in range(seq_len):
            pred, state = model.step(xs[:, t], state)
            loss = loss + F.mse_loss(pred, targets[:, t])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(epoch, round(loss.item(), 4))


if __name__ == "__main__":
    train()
