import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class AnomalyAttention(nn.Module):
    def __init__(self, win_size, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.query = nn.Linear(d_model, d_model)
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)
        self.sigma = nn.Linear(d_model, n_heads)
        self.out = nn.Linear(d_model, d_model)
        idx = torch.arange(win_size, dtype=torch.float32)
        self.register_buffer("distances", (idx[:, None] - idx[None, :]).abs())

    def forward(self, x):
        B, L, _ = x.shape
        q = self.query(x).view(B, L, self.n_heads, self.d_k).transpose(1, 2)
        k = self.key(x).view(B, L, self.n_heads, self.d_k).transpose(1, 2)
        v = self.value(x).view(B, L, self.n_heads, self.d_k).transpose(1, 2)
        series = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(self.d_k), dim=-1)

        sigma = torch.sigmoid(self.sigma(x) * 5) + 1e-5
        sigma = torch.pow(3, sigma) - 1
        sigma = sigma.transpose(1, 2).unsqueeze(-1)  # B, H, L, 1
        prior = 1.0 / (math.sqrt(2 * math.pi) * sigma) * torch.exp(-self.distances ** 2 / 2 / sigma ** 2)
        prior = prior / prior.sum(dim=-1, keepdim=True)

        out = (series @ v).transpose(1, 2).reshape(B, L, -1)
        return self.out(out), series, prior


class AnomalyTransformer(nn.Module):
    def __init__(self, win_size, enc_in, d_model=16, n_heads=2, e_layers=2):
        super().__init__()
        self.embedding = nn.Linear(enc_in, d_model)
        self.layers = nn.ModuleList(AnomalyAttention(win_size, d_model, n_heads) for _ in range(e_layers))
        self.norms = nn.ModuleList(nn.LayerNorm(d_model) for _ in range(e_layers))
        self.projection = nn.Linear(d_model, enc_in)

    def forward(self, x):
        h = self.embedding(x)
        series_list, prior_list = [], []
        for attn, norm in zip(self.layers, self.norms):
            out, series, prior = attn(h)
            h = norm(h + F.gelu(out))
            series_list.append(series)
            prior_list.append(prior)
        return self.projection(h), series_list, prior_list


def my_kl_loss(p, q):
    res = p * (torch.log(p + 0.0001) - torch.log(q + 0.0001))
    return torch.mean(torch.sum(res, dim=-1), dim=1)
