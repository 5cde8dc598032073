import torch
import torch.nn as nn


class LinearAttention(nn.Module):
    def __init__(self, query_dimensions, feature_map_factory, eps=1e-6):
        super().__init__()
        self.feature_map = feature_map_factory(query_dimensions)
        self.eps = eps

    def forward(self, queries, keys, values):
        # draw a fresh random feature map for this forward pass
        self.feature_map.new_feature_map(queries.device)
        Q = self.feature_map(queries)
        K = self.feature_map(keys)
        KV = torch.einsum("nshd,nshm->nhmd", K, values)
        Z = 1 / (torch.einsum("nlhd,nhd->nlh", Q, K.sum(dim=1)) + self.eps)
        return torch.einsum("nlhd,nhmd,nlh->nlhm", Q, KV, Z)


class AttentionLayer(nn.Module):
    def __init__(self, attention, d_model, n_heads, d_keys=None, d_values=None):
        super().__init__()
        d_keys = d_keys or d_model // n_heads
        d_values = d_values or d_model // n_heads
        self.inner_attention = attention
        self.query_projection = nn.Linear(d_model, d_keys * n_heads)
        self.key_projection = nn.Linear(d_model, d_keys * n_heads)
        self.value_projection = nn.Linear(d_model, d_values * n_heads)
        self.out_projection = nn.Linear(d_values * n_heads, d_model)
        self.n_heads = n_heads

    def forward(self, x):
        N, L, _ = x.shape
        H = self.n_heads
        q = self.query_projection(x).view(N, L, H, -1)
        k = self.key_projection(x).view(N, L, H, -1)
        v = self.value_projection(x).view(N, L, H, -1)
        return self.out_projection(self.inner_attention(q, k, v).reshape(N, L, -1))


class TransformerEncoderLayer(nn.Module):
    def __init__(self, attention, d_model, d_ff, dropout=0.1):
        super().__init__()
        self.attention = attention
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Dropout(dropout),
                                nn.Linear(d_ff, d_model))
        self.norm1, self.norm2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, x):
        x = self.norm1(x + self.attention(x))
        return self.norm2(x + self.ff(x))


class TransformerEncoder(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = nn.ModuleList(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
