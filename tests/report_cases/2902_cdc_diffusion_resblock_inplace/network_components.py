import math
import torch
import torch.nn as nn


class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(torch.arange(half) * -(math.log(10000) / (half - 1)))
        args = t.float()[:, None] * freqs[None]
        return torch.cat([args.sin(), args.cos()], dim=-1)


class Block(nn.Module):
    def __init__(self, dim, dim_out, groups=4):
        super().__init__()
        self.proj = nn.Conv2d(dim, dim_out, 3, padding=1)
        self.norm = nn.GroupNorm(groups, dim_out)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.norm(self.proj(x)))


class ResnetBlock(nn.Module):
    def __init__(self, dim, dim_out, time_emb_dim):
        super().__init__()
        self.mlp = nn.Sequential(nn.SiLU(), nn.Linear(time_emb_dim, dim_out))
        self.block1 = Block(dim, dim_out)
        self.block2 = Block(dim_out, dim_out)
        self.res_conv = nn.Conv2d(dim, dim_out, 1) if dim != dim_out else nn.Identity()

    def forward(self, x, time_emb):
        h = self.block1(x)
        h += self.mlp(time_emb)[:, :, None, None]
        h = self.block2(h)
        h += self.res_conv(x)
        return h


class Unet(nn.Module):
    def __init__(self, dim=8, channels=1):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPosEmb(dim), nn.Linear(dim, dim * 2), nn.SiLU())
        self.init_conv = nn.Conv2d(channels, dim, 3, padding=1)
        self.down = ResnetBlock(dim, dim * 2, dim * 2)
        self.mid = ResnetBlock(dim * 2, dim * 2, dim * 2)
        self.up = ResnetBlock(dim * 4, dim, dim * 2)
        self.final = nn.Conv2d(dim, channels, 1)

    def forward(self, x, t):
        temb = self.time_mlp(t)
        x = self.init_conv(x)
        d = self.down(x, temb)
        m = self.mid(d, temb)
        u = self.up(torch.cat([m, d], dim=1), temb)
        return self.final(u)
