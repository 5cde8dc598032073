"""MVANet-like dichotomous segmentation net: CNN encoder + a transformer
fusion layer between the global view and local patches + a light decoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def get_activation_fn(activation):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


class ConvBNReLU(nn.Module):
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.relu(self.bn(self.conv(x)))


class MCLM(nn.Module):
    """Multi-view complement localization: global token attends to patch tokens."""

    def __init__(self, d_model=32, nhead=4, dim_feedforward=64, dropout=0.1):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, nhead, dropout=dropout)
        self.linear1 = nn.Linear(d_model, dim_feedforward)
        self.linear2 = nn.Linear(dim_feedforward, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)
        self.dropout1 = nn.Dropout(dropout)
        self.dropout2 = nn.Dropout(dropout)
        self.activation = get_activation_fn("relu")

    def forward(self, glb, loc):
        # glb: [HW, B, C], loc: [N*HW, B, C]
        g2 = self.attn(glb, loc, loc)[0]
        glb = self.norm1(glb + self.dropout1(g2))
        g2 = self.linear2(self.dropout(self.activation(self.linear1(glb))))
        return self.norm2(glb + self.dropout2(g2))


class MVANet(nn.Module):
    def __init__(self, c=32):
        super().__init__()
        self.encoder = nn.Sequential(ConvBNReLU(3, c // 2, 2), ConvBNReLU(c // 2, c, 2))
        self.mclm = MCLM(d_model=c)
        self.decoder = nn.Sequential(ConvBNReLU(c, c // 2), nn.Conv2d(c // 2, 1, 1))

    def forward(self, x):
        B = x.shape[0]
        H, W = x.shape[-2:]
        glb = F.interpolate(x, scale_factor=0.5, mode="bilinear", align_corners=False)
        patches = torch.cat([x[..., :H // 2, :W // 2], x[..., :H // 2, W // 2:],
                             x[..., H // 2:, :W // 2], x[..., H // 2:, W // 2:]], 0)
        fg = self.encoder(glb)                       # [B, C, h, w]
        fl = self.encoder(patches)                   # [4B, C, h, w]
        C, h, w = fg.shape[1:]
        g_tok = fg.flatten(2).permute(2, 0, 1)       # [hw, B, C]
        l_tok = fl.view(4, B, C, h * w).permute(0, 3, 1, 2).reshape(4 * h * w, B, C)
        fused = self.mclm(g_tok, l_tok).permute(1, 2, 0).reshape(B, C, h, w)
        out = self.decoder(fused)
        return F.interpolate(out, size=(H, W), mode="bilinear", align_corners=False)
