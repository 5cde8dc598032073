import torch
import torch.nn as nn
import torch.nn.functional as F

from fixed_src.layers import ViTEncoder, ViTDecoder
from quantizer import VectorQuantizer

torch.manual_seed(0)

cfg = dict(image_size=16, patch_size=4, dim=32, depth=1, heads=4, mlp_dim=64)
embed_dim, n_embed = 16, 64

encoder = ViTEncoder(**cfg)
decoder_rgb = ViTDecoder(**cfg, channels=3)
decoder_depth = ViTDecoder(**cfg, channels=1)
pre_quant = nn.Linear(cfg["dim"], embed_dim)
post_quant = nn.Linear(embed_dim, cfg["dim"])
quantizer = VectorQuantizer(embed_dim, n_embed)

modules = nn.ModuleList([encoder, decoder_rgb, decoder_depth, pre_quant, post_quant, quantizer])
optimizer = torch.optim.AdamW(modules.parameters(), lr=3e-4, betas=(0.9, 0.99))


def encode(img):
    h = pre_quant(encoder(img))
    quant, emb_loss, _ = quantizer(h)
    return post_quant(quant), emb_loss


images = torch.rand(32, 3, 16, 16)
depths = images.mean(dim=1, keepdim=True) ** 2

for step in range(4):
    for i in range(0, len(images), 8):
        x = images[i:i + 8]
        depth = depths[i:i + 8]
        quant, vq_loss = encode(x)
        rec_rgb = decoder_rgb(quant)
        rec_depth = decoder_depth(quant)
        loss = F.l1_loss(rec_rgb, x) + 0.5 * F.mse_loss(rec_depth, depth) + vq_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
