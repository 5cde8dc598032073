import torch
import torch.nn as nn


def get_2d_sincos_pos_embed(dim, grid_size):
    grid_h = torch.arange(grid_size, dtype=torch.float32)
    grid_w = torch.arange(grid_size, dtype=torch.float32)
    gh, gw = torch.meshgrid(grid_h, grid_w, indexing="ij")
    omega = 1.0 / (10000 ** (torch.arange(dim // 4, dtype=torch.float32) / (dim / 4.0)))
    out_h = gh.reshape(-1, 1) * omega
    out_w = gw.reshape(-1, 1) * omega
    emb = torch.cat([out_h.sin(), out_h.cos(), out_w.sin(), out_w.cos()], dim=1)
    return emb.unsqueeze(0)


class PreNormBlock(nn.Module):
    def __init__(self, dim, heads, mlp_dim):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, mlp_dim), nn.GELU(), nn.Linear(mlp_dim, dim))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class Transformer(nn.Module):
    def __init__(self, dim, depth, heads, mlp_dim):
        super().__init__()
        self.layers = nn.ModuleList([PreNormBlock(dim, heads, mlp_dim) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.norm(x)


class ViTEncoder(nn.Module):
    def __init__(self, image_size, patch_size, dim, depth, heads, mlp_dim, channels=3):
        super().__init__()
        self.num_patches = (image_size // patch_size) ** 2
        self.to_patch_embedding = nn.Conv2d(channels, dim, kernel_size=patch_size, stride=patch_size)
        self.register_buffer("en_pos_embedding", get_2d_sincos_pos_embed(dim, image_size // patch_size))
        self.transformer = Transformer(dim, depth, heads, mlp_dim)

    def forward(self, img):
        x = self.to_patch_embedding(img).flatten(2).transpose(1, 2)
        x = x + self.en_pos_embedding
        return self.transformer(x)


class ViTDecoder(nn.Module):
    def __init__(self, image_size, patch_size, dim, depth, heads, mlp_dim, channels=3):
        super().__init__()
        self.grid = image_size // patch_size
        self.patch_size = patch_size
        self.de_pos_embedding = nn.Parameter(get_2d_sincos_pos_embed(dim, self.grid))
        self.transformer = Transformer(dim, depth, heads, mlp_dim)
        self.to_pixel = nn.ConvTranspose2d(dim, channels, kernel_size=patch_size, stride=patch_size)

    def forward(self, token):
        token += self.de_pos_embedding
        x = self.transformer(token)
        b, n, d = x.shape
        x = x.transpose(1, 2).reshape(b, d, self.grid, self.grid)
        return self.to_pixel(x)
