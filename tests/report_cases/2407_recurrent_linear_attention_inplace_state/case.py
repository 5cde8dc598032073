"""Causal linear-attention transformer run in its recurrent (RNN-like) form,
one time step at a time, as a sequence model for a streaming signal."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def elu_feature_map(x):
    return F.elu(x) + 1


class RecurrentLinearAttention(nn.Module):
    def __init__(self, query_dimensions, eps=1e-6):
        super().__init__()
        self.feature_map = elu_feature_map
        self.eps = eps

    def forward(self, query, key, value, memory=None):
        Q = self.feature_map(query)
        K = self.feature_map(key)
        N, H, D = Q.shape
        _, _, M = value.shape
        if memory is None:
            Si = query.new_zeros((N, H, D, M))
            Zi = query.new_zeros((N, H, D))
        else:
            Si, Zi = memory
        # update the running key/value statistics with this step
        Zi += K
        Si += torch.einsum("nhd,nhm->nhdm", K, value)
        Z = 1. / (torch.einsum("nhd,nhd->nh", Q, Zi) + self.eps)
        V = torch.einsum("nhd,nhdm,nh->nhm", Q, Si, Z)
        return V, [Si, Zi]


class RecurrentAttentionLayer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads, self.d_head = n_heads, d_model // n_heads
        self.query_projection = nn.Linear(d_model, d_model)
        self.key_projection = nn.Linear(d_model, d_model)
        self.value_projection = nn.Linear(d_model, d_model)
        self.out_projection = nn.Linear(d_model, d_model)
        self.inner_attention = RecurrentLinearAttention(self.d_head)

    def forward(self, x, state=None):
        N = x.shape[0]
        q = self.query_projection(x).view(N, self.n_heads, -1)
        k = self.key_projection(x).view(N, self.n_heads, -1)
        v = self.value_projection(x).view(N, self.n_heads, -1)
        out, state = self.inner_attention(q, k, v, state)
        return self.out_projection(out.reshape(N, -1)), state


class RecurrentEncoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, d_ff):
        super().__init__()
        self.attention = RecurrentAttentionLayer(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))
        self.norm1, self.norm2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, x, state=None):
        a, state = self.attention(x, state)
        x = self.norm1(x + a)
        return self.norm2(x + self.ff(x)), state


class StreamingForecaster(nn.Module):
    def __init__(self, in_dim, d_model=32, n_heads=4, d_ff=64, n_layers=2):
        super().__init__()
        self.embed = nn.Linear(in_dim, d_model)
        self.layers = nn.ModuleList([RecurrentEncoderLayer(d_model, n_heads, d_ff) for _ in range(n_layers)])
        self.head = nn.Linear(d_model, in_dim)

    def forward(self, x_t, states=None):
        states = states or [None] * len(self.layers)
        h = self.embed(x_t)
        new_states = []
        for layer, s in zip(self.layers, states):
            h, s = layer(h, s)
            new_states.append(s)
        return self.head(h), new_states


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--in_dim", type=int, default=3)
    parser.add_argument("--seq_len", type=int, default=24)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    torch.manual_seed(0)

    model = StreamingForecaster(args.in_dim)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    t = torch.linspace(0, 6.28, args.seq_len + 1)
    for epoch in range(args.epochs):
        phase = torch.rand(args.batch, 1, args.in_dim) * 6.28
        series = torch.sin(t.view(1, -1, 1) + phase) + 0.05 * torch.randn(args.batch, args.seq_len + 1, args.in_dim)
        states, preds = None, []
        for step in range(args.seq_len):
            y, states = model(series[:, step], states)
            preds.append(y)
        loss = F.mse_loss(torch.stack(preds, 1), series[:, 1:])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} mse {loss.item():.4f}")


if __name__ == "__main__":
    main()
