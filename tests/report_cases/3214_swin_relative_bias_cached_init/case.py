"""Window self-attention (Swin-style) with a learned relative-position bias table; since the index is
constant, the bias is gathered once in __init__ instead of at every forward."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def relative_position_index(ws):
    coords = torch.stack(torch.meshgrid(torch.arange(ws), torch.arange(ws), indexing="ij")).flatten(1)
    rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0)
    rel[:, :, 0] += ws - 1
    rel[:, :, 1] += ws - 1
    rel[:, :, 0] *= 2 * ws - 1
    return rel.sum(-1)


class WindowAttention(nn.Module):
    def __init__(self, dim=32, window_size=4, num_heads=4):
        super().__init__()
        self.num_heads, self.scale = num_heads, (dim // num_heads) ** -0.5
        n = window_size * window_size
        self.relative_position_bias_table = nn.Parameter(torch.randn((2 * window_size - 1) ** 2, num_heads) * 0.02)
        self.register_buffer("relative_position_index", relative_position_index(window_size))
        bias = self.relative_position_bias_table[self.relative_position_index.view(-1)].view(n, n, -1)
        self.relative_position_bias = bias.permute(2, 0, 1).contiguous()  # nH, Wh*Ww, Wh*Ww
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, c = x.shape
        qkv = self.qkv(x).reshape(b, n, 3, self.num_heads, c // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q * self.scale) @ k.transpose(-2, -1)
        attn = attn + self.relative_position_bias.unsqueeze(0)
        attn = attn.softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(b, n, c))


class TinySwinClassifier(nn.Module):
    def __init__(self, dim=32, classes=10):
        super().__init__()
        self.embed = nn.Linear(3, dim)
        self.attn = WindowAttention(dim)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, windows):  # (B, 16 tokens, 3)
        x = self.embed(windows)
        x = x + self.attn(self.norm(x))
        return self.head(x.mean(1))


def main(steps=3):
    model = TinySwinClassifier()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(steps):
        x, y = torch.randn(8, 16, 3), torch.randint(0, 10, (8,))
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
