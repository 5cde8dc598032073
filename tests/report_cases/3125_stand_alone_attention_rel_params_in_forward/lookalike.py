"""Stand-alone self-attention (local attention instead of convolution) for small-image classification,
with fixed sinusoidal relative position offsets for rows and columns."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class AttentionConv(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size=3, groups=2):
        super().__init__()
        self.out_channels, self.kernel_size, self.groups = out_channels, kernel_size, groups
        self.padding = kernel_size // 2
        self.key_conv = nn.Conv2d(in_channels, out_channels, 1, bias=False)
        self.query_conv = nn.Conv2d(in_channels, out_channels, 1, bias=False)
        self.value_conv = nn.Conv2d(in_channels, out_channels, 1, bias=False)

    def forward(self, x):
        batch, channels, height, width = x.size()
        # fixed sinusoidal relative offsets, rebuilt for the current kernel (no learnable state)
        offsets = torch.arange(self.kernel_size, dtype=x.dtype) - self.padding
        freqs = torch.arange(1, self.out_channels // 2 + 1, dtype=x.dtype)[:, None]
        self.rel_h = torch.sin(freqs * offsets).view(self.out_channels // 2, 1, 1, self.kernel_size, 1)
        self.rel_w = torch.cos(freqs * offsets).view(self.out_channels // 2, 1, 1, 1, self.kernel_size)
        padded_x = F.pad(x, [self.padding] * 4)
        q_out = self.query_conv(x)
        k_out = self.key_conv(padded_x).unfold(2, self.kernel_size, 1).unfold(3, self.kernel_size, 1)
        v_out = self.value_conv(padded_x).unfold(2, self.kernel_size, 1).unfold(3, self.kernel_size, 1)
        k_out_h, k_out_w = k_out.split(self.out_channels // 2, dim=1)
        k_out = torch.cat((k_out_h + self.rel_h, k_out_w + self.rel_w), dim=1)
        k_out = k_out.contiguous().view(batch, self.groups, self.out_channels // self.groups, height, width, -1)
        v_out = v_out.contiguous().view(batch, self.groups, self.out_channels // self.groups, height, width, -1)
        q_out = q_out.view(batch, self.groups, self.out_channels // self.groups, height, width, 1)
        out = F.softmax((q_out * k_out).sum(2, keepdim=True), dim=-1)
        return torch.einsum("bnchwk,bnchwk -> bnchw", out, v_out).reshape(batch, -1, height, width)


class SASANet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, padding=1)
        self.attn = AttentionConv(16, 16)
        self.head = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.head(F.relu(self.attn(F.relu(self.stem(x)))).mean((2, 3)))


def main(epochs=2):
    model = SASANet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    images, labels = torch.randn(16, 3, 8, 8), torch.randint(0, 10, (16,))
    for epoch in range(epochs):
        for i in range(0, 16, 8):
            loss = F.cross_entropy(model(images[i:i + 8]), labels[i:i + 8])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        optimized = {id(p) for g in optimizer.param_groups for p in g["params"]}
        print(f"epoch {epoch} loss {loss.item():.3f} attention params optimized: {all(id(p) in optimized for p in model.attn.parameters())}")


if __name__ == "__main__":
    main()
