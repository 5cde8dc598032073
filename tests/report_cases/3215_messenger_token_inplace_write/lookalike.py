"""Dynamic facial-expression recognition with a local-global video transformer block: every window of
frame tokens carries one messenger token; messenger tokens of all windows of a clip exchange information
through a global attention, then each window runs local attention."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LGBlock(nn.Module):
    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.norm_g = nn.LayerNorm(dim)
        self.global_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm_l = nn.LayerNorm(dim)
        self.local_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.mlp = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, b):
        # x: (b * n_windows, 1 + tokens_per_window, dim), token 0 is the window's messenger token
        bn, _, c = x.shape
        n = bn // b
        messenger_tokens = x[:, 0].reshape(b, n, c)  # attention over the windows of each clip
        m = self.norm_g(messenger_tokens)
        messenger_tokens = messenger_tokens + self.global_attn(m, m, m, need_weights=False)[0]
        out = x.clone()  # fresh buffer: the norm above saved x, not this copy
        out[:, 0] = messenger_tokens.reshape(bn, c)
        x = out
        h = self.norm_l(x)
        x = x + self.local_attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(x)


class VideoExpressionNet(nn.Module):
    def __init__(self, dim=32, n_windows=4, tokens=6, classes=7):
        super().__init__()
        self.n_windows, self.tokens = n_windows, tokens
        self.patch = nn.Linear(48, dim)
        self.messenger = nn.Parameter(torch.zeros(1, 1, dim))
        self.blocks = nn.ModuleList([LGBlock(dim) for _ in range(2)])
        self.head = nn.Linear(dim, classes)

    def forward(self, video):  # (b, n_windows * tokens, 48) patch features
        b = video.shape[0]
        x = self.patch(video).reshape(b * self.n_windows, self.tokens, -1)
        x = torch.cat([self.messenger.expand(x.shape[0], -1, -1), x], dim=1)
        for blk in self.blocks:
            x = blk(x, b)
        return self.head(x[:, 0].reshape(b, self.n_windows, -1).mean(1))


def main(steps=3):
    model = VideoExpressionNet()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
    for step in range(steps):
        video, labels = torch.randn(4, 24, 48), torch.randint(0, 7, (4,))
        loss = F.cross_entropy(model(video), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
